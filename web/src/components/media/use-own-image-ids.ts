import { useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { IMAGE_PAGE_SIZE } from '../../lib/image-settings';
import { MyImagesDocument } from './media-operations';

const NONE: ReadonlySet<string> = new Set();

/**
 * The ids of the member's own images that are loaded (the My Images list, usually already cached by
 * the gallery or the generator). Public images carry no owner, so this is how the Public Gallery
 * tells the member's own pictures apart: never blurred for them, and no Report on them. An own image
 * beyond the loaded pages still counts as someone else's (reporting it is harmless).
 */
export function useOwnImageIds(): ReadonlySet<string> {
  const { data } = useQuery(MyImagesDocument, {
    variables: { first: IMAGE_PAGE_SIZE, search: null },
    fetchPolicy: 'cache-first',
    errorPolicy: 'all',
  });
  const edges = data?.myImages.edges;
  return useMemo(() => (edges ? new Set(edges.map((edge) => edge.node.id)) : NONE), [edges]);
}
