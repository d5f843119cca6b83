import Module from 'node:module';
import { isMainThread, workerData } from 'node:worker_threads';

/** What a worker thread is told about where workspace packages live, when they must not be found the usual way. */
export interface WorkerModuleAliases {
  moduleAliases?: Record<string, string>;
}

type ResolveFilename = (this: unknown, request: string, ...rest: unknown[]) => string;

/**
 * Jest runs the service from its TypeScript sources and maps workspace packages (`@app/kit`, `@app/schema`) to
 * theirs; a worker thread runs outside jest and would load their compiled builds instead (absent or stale).
 * The pool then passes the paths jest resolved, and this installs them before the worker loads anything else.
 * Compiled builds pass none, and resolution stays Node's own.
 */
function installModuleAliases(aliases: Record<string, string>): void {
  if (Object.keys(aliases).length === 0) return;
  const internals = Module as unknown as { _resolveFilename: ResolveFilename };
  const resolveFilename = internals._resolveFilename;
  internals._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    return aliases[request] ?? resolveFilename.call(this, request, ...rest);
  };
}

if (!isMainThread) installModuleAliases((workerData as WorkerModuleAliases | null)?.moduleAliases ?? {});
