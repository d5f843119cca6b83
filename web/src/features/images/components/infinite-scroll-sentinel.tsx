import { Box } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';

/**
 * An invisible marker under a list: when it comes within `rootMargin` of the viewport, `onVisible`
 * asks for the next page. The observer is renewed when `itemCount` changes, so a page that still
 * leaves the marker on screen leads straight to the next one.
 */
export function InfiniteScrollSentinel({
  onVisible,
  enabled,
  itemCount,
  rootMargin = '600px 0px',
}: {
  onVisible: () => void;
  enabled: boolean;
  itemCount: number;
  rootMargin?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });

  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled, itemCount, rootMargin]);

  return <Box ref={ref} h="1px" aria-hidden="true" data-testid="infinite-scroll-sentinel" />;
}
