import { AsyncLocalStorage } from 'node:async_hooks';

/** Whom the work in progress is done for: every log line written while it runs carries these (the logger's mixin). */
export interface RequestContext {
  requestId?: string;
  /** May be learned while the request runs (the gateway reads the session on first use): set it on the same object. */
  userId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn`, and everything it starts asynchronously, inside `context`. */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the request being served here, if any. */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Runs `fn` outside any request: work a request merely set off (event delivery) must not carry its id. */
export function runOutsideRequestContext<T>(fn: () => T): T {
  return storage.exit(fn);
}
