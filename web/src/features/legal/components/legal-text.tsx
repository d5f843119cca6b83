import { Box, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { getSupportEmail } from '../../../lib/app-config';
import { ShieldIcon } from '../../../components/icons/legal-icons';

/** Building blocks for the legal documents: consistent type, spacing and accessible links. */

export function LegalParagraph({ children }: { children: ReactNode }) {
  return <Text lineHeight="tall">{children}</Text>;
}

export function LegalList({ items }: { items: ReactNode[] }) {
  return (
    <List.Root as="ul" gap="2" ps="5" lineHeight="tall" listStyleType="disc" _marker={{ color: 'purple.300' }}>
      {items.map((item, index) => (
        <List.Item key={index}>{item}</List.Item>
      ))}
    </List.Root>
  );
}

export function LegalSubheading({ children }: { children: ReactNode }) {
  return (
    <Heading as="h3" size="md" pt="2">
      {children}
    </Heading>
  );
}

/** In-app link inside running text (underlined so it is not identified by colour alone). */
export function LegalRouteLink({ to, children }: { to: string; children?: ReactNode }) {
  return (
    <Link asChild variant="underline" colorPalette="purple" fontWeight="medium">
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

/** The operator's support address as a mailto link. */
export function SupportEmailLink() {
  const email = getSupportEmail();
  return (
    <Link href={`mailto:${email}`} variant="underline" colorPalette="purple" fontWeight="medium" wordBreak="break-word">
      {email}
    </Link>
  );
}

/** A highlighted notice box (role="note") labelled by its own heading. */
export function LegalNotice({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Box
      role="note"
      aria-labelledby={headingId}
      borderWidth="1px"
      borderColor="orange.700"
      borderStartWidth="4px"
      borderStartColor="orange.400"
      bg="orange.950/40"
      rounded="lg"
      p={{ base: '4', md: '5' }}
    >
      <Stack gap="3">
        <Heading as="h2" id={headingId} size="lg" display="flex" alignItems="center" gap="2" color="orange.200">
          <ShieldIcon boxSize="5" />
          {title}
        </Heading>
        <Box color="fg">{children}</Box>
      </Stack>
    </Box>
  );
}
