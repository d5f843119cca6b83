import { Box, Button, Menu, Portal, Text, VisuallyHidden, type ButtonProps } from '@chakra-ui/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n/change-language';
import { getLanguage, isLanguageCode, LANGUAGES } from '../i18n/languages';
import { trackEvent } from '../lib/analytics';

function ChevronDownIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * The language menu (spec §2, §4): the nine languages by their own names with a flag, the current
 * one checked. Picking one loads its catalog, switches, and remembers the choice. `showName={false}`
 * shows the flag and code only (the full name stays in the accessible name); `showName="fromSm"`
 * does so on phones only, where the bar has no room for the name.
 */
export function LanguagePicker({ showName = true, ...buttonProps }: { showName?: boolean | 'fromSm' } & ButtonProps) {
  const { t, i18n } = useTranslation();
  const current = getLanguage(i18n.resolvedLanguage ?? i18n.language);

  const trigger = useRef<HTMLButtonElement>(null);
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
    <Menu.Root positioning={{ placement: 'bottom-end' }} onOpenChange={(details) => !details.open && keepFocusAfterClose()}>
      <Menu.Trigger asChild>
        {/* Name from content, e.g. "Language English": the visible language name is part of it. */}
        <Button ref={trigger} variant="ghost" size="sm" px="2" gap="1.5" data-testid="language-picker" {...buttonProps}>
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
