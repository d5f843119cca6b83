import { Link } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export const MAIN_CONTENT_ID = 'main-content';

/** First focusable element: lets keyboard users jump past the navigation. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      position="absolute"
      left="4"
      top="-20"
      zIndex="skipLink"
      px="4"
      py="2"
      rounded="md"
      bg="purple.600"
      color="white"
      _focus={{ top: '4' }}
    >
      {t('common.skipToContent')}
    </Link>
  );
}
