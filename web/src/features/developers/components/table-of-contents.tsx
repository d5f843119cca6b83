import { Box, Link, List, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { SECTION_IDS } from './developers-section';

/** The page arrives lazily, after the browser's own jump to a #fragment, so jump to the section once it exists. */
export function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash.length > 1) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
}

export function TableOfContents() {
  const { t } = useTranslation();
  return (
    <Box
      as="nav"
      aria-labelledby="developers-toc-label"
      position={{ lg: 'sticky' }}
      top={{ lg: '24' }}
      alignSelf="start"
      borderWidth="1px"
      borderColor="border.muted"
      rounded="lg"
      bg="bg.subtle"
      p="4"
    >
      <Text
        id="developers-toc-label"
        fontSize="xs"
        fontWeight="semibold"
        textTransform="uppercase"
        letterSpacing="wider"
        color="fg.muted"
        mb="3"
      >
        {t('developers.onThisPage')}
      </Text>
      <List.Root as="ol" listStyleType="none" gap="1" fontSize="sm">
        {SECTION_IDS.map((id) => (
          <List.Item key={id}>
            <Link href={`#${id}`} display="block" py="1" color="fg.muted" _hover={{ color: 'purple.200', textDecoration: 'none' }}>
              {t(`developers.${id}.title`)}
            </Link>
          </List.Item>
        ))}
      </List.Root>
    </Box>
  );
}
