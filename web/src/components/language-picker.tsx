import { Box, Button, Text, VisuallyHidden, type ButtonProps } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { getLanguage } from '../i18n/languages';
import { onDemand } from '../lib/on-demand';
import { ChevronDownIcon, useLanguageMenuOnDemand } from './language-picker-parts';

/** The menu's chunk, fetched once (again after a failure: a flaky connection is asked again on the next press). */
const languageMenu = onDemand(() => import('./language-menu'));

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
  const { loaded: menu, openWith, buttonProps: pickerProps } = useLanguageMenuOnDemand(languageMenu);

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
    <Button variant="ghost" size="sm" px="2" gap="1.5" {...buttonProps} {...pickerProps}>
      {label}
    </Button>
  );
}
