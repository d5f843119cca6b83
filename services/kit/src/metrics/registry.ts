import { Counter, type CounterConfiguration, Gauge, type GaugeConfiguration, Histogram, type HistogramConfiguration } from 'prom-client';
import { collectDefaultMetrics, register } from 'prom-client';

/*
 * One registry per process: prom-client's default `register`. Every part of a process (the gateway and, in the
 * embedded mode, the services beside it) adds its series to it, and `/metrics` serves it whole.
 */

let defaultsCollected = false;

/** Node's own series (CPU, memory, event-loop lag, GC, handles), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected || register.getSingleMetric('process_cpu_user_seconds_total')) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register });
}

// A second copy of this module (a test that loads the kit twice) finds the series the first one registered.
export function histogram<L extends string>(config: HistogramConfiguration<L>): Histogram<L> {
  return (register.getSingleMetric(config.name) as Histogram<L> | undefined) ?? new Histogram(config);
}

export function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  return (register.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter(config);
}

export function gauge<L extends string>(config: GaugeConfiguration<L>): Gauge<L> {
  return (register.getSingleMetric(config.name) as Gauge<L> | undefined) ?? new Gauge(config);
}

/** The whole process's series in Prometheus's text format, every collected gauge read now. */
export async function readMetrics(): Promise<{ contentType: string; body: string }> {
  collectProcessMetrics();
  return { contentType: register.contentType, body: await register.metrics() };
}
