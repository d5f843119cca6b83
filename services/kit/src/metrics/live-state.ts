import type { CircuitState, InstanceStatusReport, StatusReporter } from '../bus/bus';
import { logger } from '../logger';

/** A reporter that has not answered by then is left out: a database that hangs must stall neither discovery nor a scrape. */
export const REPORT_BUDGET_MS = 250;

/** A durable consumer's backlog, read from its transport when asked; null when it cannot be read now. */
export interface PendingSource {
  consumer: string;
  read(): Promise<number | null>;
}

const pendingSources = new Set<PendingSource>();
const reporters = new Set<StatusReporter>();

/** Read on every scrape (`bus_consumer_pending`) until the returned function is called. */
export function trackConsumerPending(source: PendingSource): () => void {
  pendingSources.add(source);
  return () => void pendingSources.delete(source);
}

/** Read on every scrape (`provider_circuit_state`, `queue_depth`) until the returned function is called. */
export function trackStatusReporter(reporter: StatusReporter): () => void {
  reporters.add(reporter);
  return () => void reporters.delete(reporter);
}

/** Every tracked consumer's backlog; one consumer seen twice (two buses of one process) counts once. */
export async function readConsumerPending(): Promise<Map<string, number>> {
  const pending = new Map<string, number>();
  const reads = [...pendingSources].map(async (source) => {
    const count = await withinBudget(() => source.read(), `pending count of ${source.consumer}`);
    if (count !== null && count !== undefined) pending.set(source.consumer, Math.max(count, pending.get(source.consumer) ?? 0));
  });
  await Promise.all(reads);
  return pending;
}

let reading: Promise<Required<InstanceStatusReport>> | null = null;

/** What every status reporter of this process says now; the gauges of one scrape share one reading. */
export function readProcessStatus(): Promise<Required<InstanceStatusReport>> {
  reading ??= readStatus(reporters).finally(() => {
    reading = null;
  });
  return reading;
}

const SEVERITY: Record<CircuitState, number> = { closed: 0, 'half-open': 1, open: 2 };

/** The circuit's state as the `provider_circuit_state` gauge shows it: 0 closed, 1 half-open, 2 open. */
export const circuitStateValue = (state: CircuitState): number => SEVERITY[state];

/** The reports of `sources`, merged: a circuit named twice shows its worst state, a queue named twice its largest depth. */
export async function readStatus(sources: Iterable<StatusReporter>): Promise<Required<InstanceStatusReport>> {
  const reports = await Promise.all([...sources].map((reporter) => withinBudget(reporter, 'status report')));
  const circuits = new Map<string, CircuitState>();
  const queues = new Map<string, number>();
  for (const report of reports) {
    for (const circuit of report?.circuits ?? []) {
      const known = circuits.get(circuit.name);
      if (!known || SEVERITY[circuit.state] > SEVERITY[known]) circuits.set(circuit.name, circuit.state);
    }
    for (const queue of report?.queues ?? []) queues.set(queue.name, Math.max(queue.depth, queues.get(queue.name) ?? 0));
  }
  return {
    circuits: [...circuits].map(([name, state]) => ({ name, state })),
    queues: [...queues].map(([name, depth]) => ({ name, depth })),
  };
}

async function withinBudget<T>(read: () => Promise<T> | T, what: string): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), REPORT_BUDGET_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(read), late]);
  } catch (error) {
    logger.debug({ err: error }, `${what} could not be read`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}
