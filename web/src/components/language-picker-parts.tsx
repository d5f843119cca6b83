import { useEffect, useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import type { LanguageMenuProps, MenuOpening } from './language-menu';

/** What both language pickers draw and do (components/language-picker.tsx; the landing's, without the UI kit). */

/** Keys that open a menu from its button (WAI-ARIA menu button pattern). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp']);

export function ChevronDownIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
      <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

type MenuComponent = ComponentType<LanguageMenuProps>;

/**
 * A language button whose menu is a chunk fetched on the first hover, touch, click or key press (`menu`: lib/on-demand.ts).
 * Until it arrives the button stays (with the focus, if it had it); a click or key press made before opens the menu as
 * soon as it does; a chunk that fails to arrive leaves the button, and the next press asks again.
 */
export function useLanguageMenuOnDemand(menu: { loaded: () => MenuComponent | undefined; load: () => Promise<MenuComponent> }) {
  const [loaded, setLoaded] = useState<{ Menu: MenuComponent; takeFocus: boolean } | undefined>(() => {
    const Menu = menu.loaded();
    return Menu ? { Menu, takeFocus: false } : undefined;
  });
  const [openWith, setOpenWith] = useState<MenuOpening | null>(null);
  const pickerButton = useRef<HTMLButtonElement>(null);
  const isMounted = useRef(true);
  useEffect(() => {
    isMounted.current = true;
    return () => void (isMounted.current = false);
  }, []);

  const fetchMenu = () => {
    menu
      .load()
      .then((Menu) => {
        if (isMounted.current) setLoaded({ Menu, takeFocus: document.activeElement === pickerButton.current });
      })
      .catch((error: unknown) => console.warn('The language menu could not load.', error));
  };
  const open = (how: MenuOpening) => {
    setOpenWith(how);
    fetchMenu();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!OPENING_KEYS.has(event.key)) return;
    event.preventDefault();
    open('keyboard');
  };
  return {
    loaded,
    openWith,
    buttonProps: {
      ref: pickerButton,
      'aria-haspopup': 'menu' as const,
      'aria-expanded': false,
      'data-testid': 'language-picker',
      onPointerEnter: fetchMenu,
      onTouchStart: fetchMenu,
      onClick: () => open('pointer'),
      onKeyDown,
    },
  };
}
