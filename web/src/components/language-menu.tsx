import { Box, Button, Menu, Portal, type ButtonProps } from '@chakra-ui/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n/change-language';
import { isLanguageCode, LANGUAGES, type Language } from '../i18n/languages';
import { trackEvent } from '../lib/analytics';

/** How the visitor asked for the menu before its code had arrived: it opens as that gesture would have opened it. */
export type MenuOpening = 'pointer' | 'keyboard';

export interface LanguageMenuProps {
  current: Language;
  /** The trigger's content, the same as the button shown while this chunk loads. */
  label: ReactNode;
  buttonProps: ButtonProps;
  /** Open at once (a click or key press came before this chunk did). */
  openWith: MenuOpening | null;
  /** Take the focus on mount: the button it replaces had it. */
  takeFocus: boolean;
}

/**
 * The language menu proper (spec §2, §4), its own chunk: LanguagePicker loads it on the first hover,
 * touch, click or key press, so the first paint carries none of the menu's code.
 */
export default function LanguageMenu({ current, label, buttonProps, openWith, takeFocus }: LanguageMenuProps) {
  const { t } = useTranslation();
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (takeFocus && !openWith) trigger.current?.focus();
  }, [takeFocus, openWith]);

  // Closing the menu hands focus back to the picker, but the menu's content leaves the page a few
  // frames later and, in a race with that, focus can fall to the page; for half a second after a
  // close, a focus that falls to the page goes back to the picker, where a keyboard user left it.
  const keepFocusAfterClose = () => {
    const until = performance.now() + 500;
    const check = () => {
      const active = document.activeElement;
      if (active === document.body || active === null) trigger.current?.focus();
      else if (active !== trigger.current && !active.closest('[role="menu"]')) return; // the user has moved on
      if (performance.now() < until) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  };

  function select(code: string) {
    if (!isLanguageCode(code) || code === current.code) return;
    trackEvent('language', code);
    changeLanguage(code).catch((error: unknown) => console.warn(`Could not switch to "${code}".`, error));
  }

  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      defaultOpen={openWith !== null}
      // Opened from the keyboard, the first language is highlighted, as the menu does itself for Enter, Space and the arrows.
      defaultHighlightedValue={openWith === 'keyboard' ? LANGUAGES[0].code : undefined}
      onOpenChange={(details) => !details.open && keepFocusAfterClose()}
    >
      <Menu.Trigger asChild>
        <Button ref={trigger} variant="ghost" size="sm" px="2" gap="1.5" data-testid="language-picker" {...buttonProps}>
          {label}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="48" aria-label={t('language.label')}>
            <Menu.RadioItemGroup value={current.code} onValueChange={(details) => select(details.value)}>
              {/* The group is aria-labelledby its label: without one, that reference points nowhere. */}
              <Menu.ItemGroupLabel srOnly>{t('language.label')}</Menu.ItemGroupLabel>
              {LANGUAGES.map((language) => (
                <Menu.RadioItem
                  key={language.code}
                  value={language.code}
                  lang={language.code}
                  data-testid={`language-option-${language.code}`}
                >
                  <Box as="span" aria-hidden="true" fontSize="md" lineHeight="1">
                    {language.flag}
                  </Box>
                  <Menu.ItemText>{language.name}</Menu.ItemText>
                  <Menu.ItemIndicator />
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
