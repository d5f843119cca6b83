import { Badge, Box, Container, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { CheckIcon } from '../../../components/icons/landing-icons';

/** Room above a section reached through an anchor link, so the sticky navigation does not cover its heading. */
export const ANCHOR_OFFSET = '20';

export function ComingSoonBadge({ children }: { children: ReactNode }) {
  return (
    <Badge colorPalette="purple" variant="subtle" size="md" rounded="full" px="3" data-testid="coming-soon-badge">
      {children}
    </Badge>
  );
}

/**
 * Below the fold on any screen: the browser skips styling and laying out a section until it nears the viewport
 * (the page's first layout, and the app's taking over from the pre-rendered landing, are most of its start-up
 * work); `auto` keeps a section's size once it has been shown.
 */
const RENDER_WHEN_NEAR = { contentVisibility: 'auto', containIntrinsicSize: 'auto 60rem' } as const;

/** One landing section: a labelled <section> with an h2, an optional badge and intro, then content. */
export function LandingSection({
  id,
  title,
  intro,
  badge,
  align = 'center',
  tone = 'plain',
  headingTestId,
  children,
}: {
  id: string;
  title: ReactNode;
  intro?: ReactNode;
  badge?: ReactNode;
  align?: 'center' | 'start';
  tone?: 'plain' | 'raised';
  headingTestId?: string;
  children?: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <Box
      as="section"
      id={id}
      aria-labelledby={headingId}
      scrollMarginTop={ANCHOR_OFFSET}
      py={{ base: '16', md: '24' }}
      px={{ base: '4', md: '6' }}
      bg={tone === 'raised' ? 'bg.subtle' : undefined}
      borderTopWidth={tone === 'raised' ? '1px' : undefined}
      borderBottomWidth={tone === 'raised' ? '1px' : undefined}
      borderColor="border.muted"
      css={RENDER_WHEN_NEAR}
    >
      <Container maxW="6xl" px="0">
        <Stack
          gap="4"
          textAlign={align === 'center' ? 'center' : 'start'}
          align={align === 'center' ? 'center' : 'flex-start'}
          mb={children ? { base: '10', md: '14' } : undefined}
        >
          {badge}
          <Heading as="h2" id={headingId} size={{ base: '3xl', md: '4xl' }} letterSpacing="tight" data-testid={headingTestId}>
            {title}
          </Heading>
          {intro ? (
            <Text fontSize={{ base: 'md', md: 'lg' }} color="fg.muted" maxW="2xl">
              {intro}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Container>
    </Box>
  );
}

/** A bulleted list with check marks. */
export function CheckList({ items, color = 'purple.300' }: { items: ReactNode[]; color?: string }) {
  return (
    <Stack as="ul" gap="2.5" listStyleType="none" m="0" p="0">
      {items.map((item, index) => (
        <Flex as="li" key={index} gap="2.5" align="flex-start">
          <CheckIcon boxSize="4" color={color} mt="1" flexShrink={0} />
          <Text as="span">{item}</Text>
        </Flex>
      ))}
    </Stack>
  );
}
