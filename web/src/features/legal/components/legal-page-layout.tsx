import { Box, Breadcrumb, Button, Container, Flex, Grid, Heading, HStack, Link, List, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { ArrowLeftIcon } from '../../../components/icons/legal-icons';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { getBrandName } from '../../../lib/app-config';

export interface LegalSection {
  /** Anchor id of the section heading (the table of contents links to it). */
  id: string;
  /** Heading text, including its number where the document is numbered ("1. Agreement to Terms"). */
  title: string;
  content: ReactNode;
}

export interface LegalPageLayoutProps {
  /** The document's name: the h1, the breadcrumb and the browser tab title. */
  title: string;
  /** "Effective date: …" or "Last updated: …", with the date in a <time> element. */
  dateLine: ReactNode;
  /** Lead paragraph(s) under the title. */
  intro?: ReactNode;
  /** A highlighted notice (LegalNotice) shown before the sections. */
  notice?: ReactNode;
  sections: LegalSection[];
  /** Calls to action after the last section. */
  actions?: ReactNode;
}

const FOOTER_LINKS = [
  { to: '/', label: 'legal.layout.links.home' },
  { to: '/tos', label: 'legal.layout.links.tos' },
  { to: '/privacy', label: 'legal.layout.links.privacy' },
  { to: '/takedown', label: 'legal.layout.links.takedown' },
] as const;

/** Room above a heading reached through an anchor, so the sticky member navigation bar does not cover it. */
const ANCHOR_OFFSET = '24';

function LegalHeader({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Flex as="header" align="center" justify="space-between" gap="4" wrap="wrap">
      <Breadcrumb.Root aria-label={t('legal.layout.breadcrumb')} size="sm" minW="0">
        <Breadcrumb.List>
          <Breadcrumb.Item>
            <Breadcrumb.Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
              <RouterLink to="/">{t('legal.layout.home')}</RouterLink>
            </Breadcrumb.Link>
          </Breadcrumb.Item>
          <Breadcrumb.Separator />
          <Breadcrumb.Item>
            <Text as="span" aria-current="page" color="fg" fontWeight="medium">
              {title}
            </Text>
          </Breadcrumb.Item>
        </Breadcrumb.List>
      </Breadcrumb.Root>
      <Button asChild variant="outline" size="sm">
        <RouterLink to="/">
          <ArrowLeftIcon />
          {t('legal.layout.backToHome')}
        </RouterLink>
      </Button>
    </Flex>
  );
}

function TableOfContents({ sections }: { sections: LegalSection[] }) {
  const { t } = useTranslation();
  return (
    <Box
      as="nav"
      aria-labelledby="legal-toc-label"
      position={{ lg: 'sticky' }}
      top={{ lg: ANCHOR_OFFSET }}
      alignSelf="start"
      borderWidth="1px"
      borderColor="border.muted"
      rounded="lg"
      bg="bg.subtle"
      p="4"
      maxH={{ lg: 'calc(100dvh - 8rem)' }}
      overflowY={{ lg: 'auto' }}
    >
      <Text
        id="legal-toc-label"
        fontSize="xs"
        fontWeight="semibold"
        textTransform="uppercase"
        letterSpacing="wider"
        color="fg.muted"
        mb="3"
      >
        {t('legal.layout.onThisPage')}
      </Text>
      <List.Root as="ol" listStyleType="none" gap="1" fontSize="sm">
        {sections.map((section) => (
          <List.Item key={section.id}>
            <Link
              href={`#${section.id}`}
              display="block"
              py="1"
              color="fg.muted"
              lineHeight="short"
              _hover={{ color: 'purple.200', textDecoration: 'none' }}
            >
              {section.title}
            </Link>
          </List.Item>
        ))}
      </List.Root>
    </Box>
  );
}

function LegalFooter() {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  return (
    <Box as="footer" pt="6" borderTopWidth="1px" borderColor="border.muted">
      <Flex direction={{ base: 'column', sm: 'row' }} gap="4" justify="space-between" align={{ base: 'flex-start', sm: 'center' }}>
        <Text fontSize="sm" color="fg.muted">
          {t('legal.layout.copyright', { brand: getBrandName() })}
        </Text>
        <HStack as="nav" aria-label={t('legal.layout.footerNav')} gap={{ base: '4', md: '6' }} wrap="wrap" fontSize="sm">
          {FOOTER_LINKS.map((link) => (
            <Link
              key={link.to}
              asChild
              color="fg.muted"
              _hover={{ color: 'fg' }}
              fontWeight={pathname === link.to ? 'semibold' : undefined}
            >
              <RouterLink to={link.to} aria-current={pathname === link.to ? 'page' : undefined}>
                {t(link.label)}
              </RouterLink>
            </Link>
          ))}
        </HStack>
      </Flex>
    </Box>
  );
}

/** The page arrives lazily, after the browser's own jump to a #fragment, so jump to the section once it exists. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash.length > 1) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
}

/**
 * Frame shared by the Terms of Service and Privacy Policy pages: a header with a way home, one h1 with
 * the document date, an optional notice, a table of contents beside numbered h2 sections, and a footer.
 * It sits inside PublicLayout (visitors) or MemberLayout (members), which provide the <main> landmark.
 */
export function LegalPageLayout({ title, dateLine, intro, notice, sections, actions }: LegalPageLayoutProps) {
  useDocumentTitle(title);
  useScrollToHash();
  return (
    <Container maxW="6xl" px="0">
      <Stack gap={{ base: '8', md: '10' }}>
        <LegalHeader title={title} />

        <Stack gap="4" maxW="3xl">
          <Heading as="h1" size={{ base: '3xl', md: '4xl' }} letterSpacing="tight">
            {title}
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {dateLine}
          </Text>
          {intro && (
            <Stack gap="4" fontSize={{ base: 'md', md: 'lg' }} color="fg.muted" lineHeight="tall">
              {intro}
            </Stack>
          )}
        </Stack>

        <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '17rem minmax(0, 1fr)' }} gap={{ base: '8', lg: '12' }} alignItems="start">
          <TableOfContents sections={sections} />
          <Stack gap="10" maxW="70ch" minW="0">
            {notice}
            {sections.map((section, index) => (
              <Stack
                as="section"
                key={section.id}
                gap="4"
                pt={index > 0 ? '10' : undefined}
                borderTopWidth={index > 0 ? '1px' : undefined}
                borderColor="border.muted"
              >
                <Heading as="h2" id={section.id} size={{ base: 'lg', md: 'xl' }} scrollMarginTop={ANCHOR_OFFSET} letterSpacing="tight">
                  {section.title}
                </Heading>
                <Stack gap="4" color="fg">
                  {section.content}
                </Stack>
              </Stack>
            ))}
            {actions && (
              <Flex gap="3" wrap="wrap" pt="2">
                {actions}
              </Flex>
            )}
          </Stack>
        </Grid>

        <LegalFooter />
      </Stack>
    </Container>
  );
}
