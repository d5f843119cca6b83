import { Box, Code, Heading, Stack, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The page's sections, in order: each is an h2 with this id, which the table of contents links to. */
export const SECTION_IDS = ['authentication', 'scopes', 'limits', 'errors', 'pagination', 'subscriptions', 'examples'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** Room above a heading reached through an anchor, so the sticky member navigation bar does not cover it. */
const ANCHOR_OFFSET = '24';

export function DevelopersSection({ id, title, children }: { id: SectionId; title: string; children: ReactNode }) {
  return (
    <Stack as="section" aria-labelledby={id} gap="4" data-testid={`developers-section-${id}`}>
      <Heading as="h2" id={id} size={{ base: 'lg', md: 'xl' }} letterSpacing="tight" scrollMarginTop={ANCHOR_OFFSET}>
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

export function SubHeading({ children }: { children: ReactNode }) {
  return (
    <Heading as="h3" size="md" mt="2">
      {children}
    </Heading>
  );
}

export function Paragraph({ children }: { children: ReactNode }) {
  return (
    <Text color="fg" lineHeight="tall">
      {children}
    </Text>
  );
}

/** The component a `<code>` tag in a translated sentence renders as. */
export const INLINE_CODE = <Code size="sm" />;

/** Code as written, never translated; focusable so a keyboard can scroll a long line. */
export function CodeBlock({ code, label, testId }: { code: string; label: string; testId?: string }) {
  return (
    <Box
      as="pre"
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      bg="bg.muted"
      borderWidth="1px"
      borderColor="border.muted"
      rounded="md"
      p="4"
      overflowX="auto"
      fontFamily="mono"
      fontSize="sm"
      lineHeight="tall"
      whiteSpace="pre"
      _focusVisible={{ outline: '2px solid', outlineColor: 'purple.400', outlineOffset: '2px' }}
    >
      <code>{code}</code>
    </Box>
  );
}

/** A two-column table: a code-like name and what it means. */
export function ReferenceTable({
  caption,
  headings,
  rows,
  testId,
}: {
  caption: string;
  headings: [string, string];
  rows: { name: string; meaning: ReactNode }[];
  testId?: string;
}) {
  return (
    // On a phone the table scrolls sideways: the keyboard must be able to reach and scroll it too.
    <Box
      overflowX="auto"
      role="region"
      aria-label={caption}
      tabIndex={0}
      rounded="md"
      _focusVisible={{ outline: '2px solid', outlineColor: 'purple.400', outlineOffset: '2px' }}
    >
      <Table.Root size="sm" variant="outline" data-testid={testId}>
        <Table.Caption srOnly>{caption}</Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader scope="col">{headings[0]}</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">{headings[1]}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.name}>
              <Table.Cell as="th" scope="row" fontWeight="normal" verticalAlign="top" whiteSpace="nowrap">
                <Code size="sm">{row.name}</Code>
              </Table.Cell>
              <Table.Cell verticalAlign="top">{row.meaning}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
