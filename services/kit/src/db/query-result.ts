/** TypeORM's `query` answers UPDATE/DELETE … RETURNING with `[rows, affected]` and SELECT/INSERT with `rows`. */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}

export function affectedCount(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}
