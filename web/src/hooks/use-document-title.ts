import { useEffect } from 'react';
import { getBrandName } from '../lib/app-config';

/** Sets the browser tab title on entry ("Page · Brand"). */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    const brand = getBrandName();
    document.title = title ? `${title} · ${brand}` : brand;
  }, [title]);
}
