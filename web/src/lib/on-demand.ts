/**
 * A module fetched the first time it is wanted, once: `load()` shares one request, and a request that failed (a flaky
 * connection, a chunk gone after a deploy) is made again on the next call instead of failing for good, as React.lazy would.
 */
export function onDemand<T>(importModule: () => Promise<{ default: T }>): { loaded: () => T | undefined; load: () => Promise<T> } {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    loaded: () => loaded,
    load: () => {
      loading ??= importModule().then(
        (module) => (loaded = module.default),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}
