/** Free-plan quotas reset on the first day of each calendar month, UTC. */
export function quotaPeriod(now: Date): { start: Date; end: Date; startDate: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end, startDate: start.toISOString().slice(0, 10) };
}
