import { Box, Button, Text, VisuallyHidden, type ButtonProps } from '@chakra-ui/react';
import { useEffect, useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getLanguage } from '../i18n/languages';
import type { LanguageMenuProps, MenuOpening } from './language-menu';

function ChevronDownIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Keys that open a menu from its button (WAI-ARIA menu button pattern). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp']);

let loadedMenu: ComponentType<LanguageMenuProps> | undefined;
let loadingMenu: Promise<ComponentType<LanguageMenuProps>> | undefined;

/** The menu's chunk, fetched once. */
function loadLanguageMenu(): Promise<ComponentType<LanguageMenuProps>> {
  loadingMenu ??= import('./language-menu').then(
    (module) => (loadedMenu = module.default),
    (error: unknown) => {
      // A chunk that failed to arrive (a flaky connection) is asked for again on the next press.
      loadingMenu = undefined;
      throw error;
    },
  );
  return loadingMenu;
}

/**
 * The language menu (spec §2, §4): the nine languages by their own names with a flag, the current
 * one checked. Picking one loads its catalog, switches, and remembers the choice. `showName={false}`
 * shows the flag and code only (the full name stays in the accessible name); `showName="fromSm"`
 * does so on phones only, where the bar has no room for the name.
 *
 * Until the visitor reaches for it, this is the menu's button alone; the menu's code (a chunk of its
 * own, language-menu.tsx) is fetched on the first hover, touch, click or key press, and a click or
 * key press made before it arrives opens the menu as soon as it does.
 */
export function LanguagePicker({ showName = true, ...buttonProps }: { showName?: boolean | 'fromSm' } & ButtonProps) {
  const { t, i18n } = useTranslation();
  const current = getLanguage(i18n.resolvedLanguage ?? i18n.language);
  const [menu, setMenu] = useState<{ Menu: ComponentType<LanguageMenuProps>; takeFocus: boolean } | undefined>(() =>
    loadedMenu ? { Menu: loadedMenu, takeFocus: false } : undefined,
  );
  const [openWith, setOpenWith] = useState<MenuOpening | null>(null);
  const placeholder = useRef<HTMLButtonElement>(null);
  const isMounted = useRef(true);
  useEffect(() => {
    isMounted.current = true;
    return () => void (isMounted.current = false);
  }, []);

  const fetchMenu = () => {
    loadLanguageMenu()
      .then((Menu) => {
        if (isMounted.current) setMenu({ Menu, takeFocus: document.activeElement === placeholder.current });
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

  const label = (
    <>
      <VisuallyHidden>{t('language.label')}</VisuallyHidden>
      <Box as="span" aria-hidden="true" fontSize="md" lineHeight="1">
        {current.flag}
      </Box>
      {showName === 'fromSm' ? (
        <>
          <Text as="span" aria-hidden="true" textTransform="uppercase" fontSize="xs" fontWeight="semibold" hideFrom="sm">
            {current.code}
          </Text>
          <Text as="span" lang={current.code} srOnly={{ base: true, sm: false }}>
            {current.name}
          </Text>
        </>
      ) : showName ? (
        <Text as="span" lang={current.code}>
          {current.name}
        </Text>
      ) : (
        <>
          <Text as="span" aria-hidden="true" textTransform="uppercase" fontSize="xs" fontWeight="semibold">
            {current.code}
          </Text>
          <VisuallyHidden lang={current.code}>{current.name}</VisuallyHidden>
        </>
      )}
      <ChevronDownIcon />
    </>
  );

  if (menu) {
    return <menu.Menu current={current} label={label} buttonProps={buttonProps} openWith={openWith} takeFocus={menu.takeFocus} />;
  }
  return (
    // Name from content, e.g. "Language English": the visible language name is part of it.
    <Button
      ref={placeholder}
      variant="ghost"
      size="sm"
      px="2"
      gap="1.5"
      aria-haspopup="menu"
      aria-expanded={false}
      data-testid="language-picker"
      {...buttonProps}
      onPointerEnter={fetchMenu}
      onTouchStart={fetchMenu}
      onClick={() => open('pointer')}
      onKeyDown={onKeyDown}
    >
      {label}
    </Button>
  );
}
