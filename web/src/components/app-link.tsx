import { createContext, useContext, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

/** Takes the visitor to an app path without reloading the page: the router's navigate, or starting the app from the landing. */
export type AppNavigate = (to: string) => void;

const AppNavigationContext = createContext<AppNavigate | undefined>(undefined);

/** Who handles AppLink clicks below it (app.tsx gives the router's navigate; the landing's own start gives the app's start). */
export function AppNavigationProvider({ navigate, children }: { navigate: AppNavigate; children: ReactNode }) {
  return <AppNavigationContext.Provider value={navigate}>{children}</AppNavigationContext.Provider>;
}

/** A plain left click, which the page may handle itself; a modified or middle click keeps the browser's meaning (new tab, download...). */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey && !event.defaultPrevented;
}

/**
 * A link to a path of the app that works without the router (react-router is not on the landing page's code path):
 * an ordinary `<a href>` whose plain clicks go to the nearest AppNavigationProvider, or load the page without one.
 */
export function AppLink({ to, onClick, target, ...anchorProps }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const navigate = useContext(AppNavigationContext);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!navigate || (target && target !== '_self') || !isPlainClick(event)) return;
    event.preventDefault();
    navigate(to);
  };
  return <a {...anchorProps} href={to} target={target} onClick={handleClick} />;
}
