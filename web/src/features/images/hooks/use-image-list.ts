import { useQuery } from '@apollo/client/react';
import { useCallback, useRef, useState } from 'react';
import type { ImageFieldsFragment } from '../../../gql/graphql';
import { IMAGE_PAGE_SIZE } from '../image-settings';
import type { GalleryTab } from '../components/image-card';
import { MyImagesDocument, PublicImagesDocument } from '../operations';

const EMPTY: readonly ImageFieldsFragment[] = [];

/**
 * One gallery tab's images for a search, page by page: `loadMore` asks for the page after
 * `pageInfo.endCursor`, and the cache appends it (relay-style field policy, lib/apollo-client.ts).
 * While a new search loads, the previous results stay on screen.
 */
export function useImageList(tab: GalleryTab, search: string | null) {
  const options = {
    variables: { first: IMAGE_PAGE_SIZE, search },
    // Fresh on entry and for each search (others may have published or liked since), then from the cache.
    fetchPolicy: 'cache-and-network' as const,
    nextFetchPolicy: 'cache-first' as const,
    errorPolicy: 'all' as const,
  };
  const mine = useQuery(MyImagesDocument, { ...options, skip: tab !== 'mine' });
  const publicList = useQuery(PublicImagesDocument, { ...options, skip: tab !== 'public' });
  const current = tab === 'mine' ? mine : publicList;
  const connection =
    tab === 'mine' ? (mine.data ?? mine.previousData)?.myImages : (publicList.data ?? publicList.previousData)?.publicImages;
  const images = connection?.edges.map((edge) => edge.node) ?? EMPTY;
  const hasNextPage = connection?.pageInfo.hasNextPage ?? false;
  const endCursor = connection?.pageInfo.endCursor ?? null;

  const [loadingMore, setLoadingMore] = useState(false);
  const inFlight = useRef(false);
  const fetchMore = current.fetchMore;
  const loadMore = useCallback(async () => {
    if (!hasNextPage || !endCursor || inFlight.current) return;
    inFlight.current = true;
    setLoadingMore(true);
    try {
      await fetchMore({ variables: { after: endCursor } });
    } catch {
      // The sentinel or the button asks again.
    } finally {
      inFlight.current = false;
      setLoadingMore(false);
    }
  }, [endCursor, fetchMore, hasNextPage]);

  return {
    images,
    /** The first page has not arrived yet (nothing to show). */
    loading: current.loading && !connection,
    /** A new search is loading over the previous results. */
    refreshing: current.loading && Boolean(connection) && !current.data,
    error: current.error,
    hasNextPage,
    loadingMore,
    loadMore,
    refetch: current.refetch,
  };
}
