/**
 * What an image list shows. Only the server's answer decides "empty": pictures that failed to load (their
 * cards are hidden, spec §8) never make a list look empty, they are announced as unavailable instead.
 */
export type ImageListState = 'loading' | 'error' | 'empty' | 'unavailable' | 'images';

export function imageListState({
  loading,
  error,
  total,
  shown,
  hasNextPage = false,
}: {
  /** The first page has not arrived. */
  loading: boolean;
  error: boolean;
  /** Images the server listed so far. */
  total: number;
  /** Those whose picture has not failed to load. */
  shown: number;
  hasNextPage?: boolean;
}): ImageListState {
  if (loading && total === 0) return 'loading';
  if (total === 0 && !hasNextPage) return error ? 'error' : 'empty';
  if (shown === 0 && !hasNextPage) return 'unavailable';
  return 'images';
}
