import { Code } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { LegalList, LegalParagraph, LegalRouteLink, LegalSubheading, SupportEmailLink } from './legal-text';
import type { LegalSection } from './legal-page-layout';

/** Values a legal text may interpolate ({{brand}}, {{days}} …). */
export type LegalValues = Record<string, string | number>;

/** A catalog section: its heading and its blocks, in order (`p…` paragraph, `h…` subheading, `list…` a list of items). */
type LegalBlocks = Record<string, string | Record<string, string>>;

function InlineCode({ children }: { children?: ReactNode }) {
  return (
    <Code size="sm" colorPalette="purple" variant="subtle">
      {children}
    </Code>
  );
}

/** The tags the legal catalogs use inside their sentences. */
const LEGAL_COMPONENTS = {
  strong: <strong />,
  code: <InlineCode />,
  email: <SupportEmailLink />,
  privacyLink: <LegalRouteLink to="/privacy" />,
  tosLink: <LegalRouteLink to="/tos" />,
  takedownLink: <LegalRouteLink to="/takedown" />,
};

/** One catalog sentence, with its links and emphasis. The key is built from the catalog's own structure. */
export function LegalText({ i18nKey, values }: { i18nKey: string; values: LegalValues }) {
  return <Trans i18nKey={i18nKey as never} values={values} components={LEGAL_COMPONENTS} />;
}

function LegalBlock({
  path,
  blockKey,
  block,
  values,
}: {
  path: string;
  blockKey: string;
  block: LegalBlocks[string];
  values: LegalValues;
}) {
  if (typeof block === 'object') {
    return (
      <LegalList
        items={Object.keys(block).map((item) => (
          <LegalText key={item} i18nKey={`${path}.${item}`} values={values} />
        ))}
      />
    );
  }
  if (blockKey.startsWith('h')) {
    return (
      <LegalSubheading>
        <LegalText i18nKey={path} values={values} />
      </LegalSubheading>
    );
  }
  return (
    <LegalParagraph>
      <LegalText i18nKey={path} values={values} />
    </LegalParagraph>
  );
}

/** A catalog subtree, or nothing while the catalog has not loaded (t then answers the key itself, a string). */
function catalogObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function LegalSectionBody({ base, values }: { base: string; values: LegalValues }) {
  const { t } = useTranslation();
  const blocks = catalogObject(t(`${base}.blocks` as never, { returnObjects: true })) as LegalBlocks;
  return (
    <>
      {Object.entries(blocks).map(([blockKey, block]) => (
        <LegalBlock key={blockKey} path={`${base}.blocks.${blockKey}`} blockKey={blockKey} block={block} values={values} />
      ))}
    </>
  );
}

/**
 * The sections of a legal document as its catalog holds them (`legal.<document>.sections.<key>`), in the catalog's order.
 * `anchor` names each heading's id; numbered documents prefix the heading with its number.
 */
export function useLegalSections(
  document: 'tos' | 'privacy',
  values: LegalValues,
  { anchor, isNumbered }: { anchor: (key: string, index: number) => string; isNumbered: boolean },
): LegalSection[] {
  const { t } = useTranslation();
  const base = `legal.${document}.sections`;
  const sections = catalogObject(t(base as never, { returnObjects: true })) as Record<string, { heading: string }>;
  return Object.keys(sections).map((key, index) => {
    const heading = t(`${base}.${key}.heading` as never, values) as string;
    return {
      id: anchor(key, index),
      title: isNumbered ? `${index + 1}. ${heading}` : heading,
      content: <LegalSectionBody base={`${base}.${key}`} values={values} />,
    };
  });
}

/** A document date ("September 1, 2025" in English) in the reader's language; YYYY-MM-DD is read as that calendar day. */
export function formatLegalDate(isoDay: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${isoDay}T00:00:00Z`));
}
