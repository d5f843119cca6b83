import { Badge, Box, type BadgeProps, Stack, Switch, Text } from '@chakra-ui/react';
import { useCurrentUser } from '../../auth/auth-context';
import type { ImageFieldsFragment } from '../../gql/graphql';
import { CoinsIcon } from '../icons';
import { GlobeIcon, LockIcon } from './media-icons';

/** Shown whenever the offline demo renderer draws the images, so they are never taken for AI. */
export const DEMO_RENDERER_NOTICE = 'Demo renderer — abstract pictures, not AI';

export function DemoRendererNotice() {
  return (
    <Box
      role="note"
      data-testid="demo-renderer-notice"
      bg="orange.950"
      color="orange.100"
      borderWidth="1px"
      borderColor="orange.800"
      rounded="md"
      px="4"
      py="2"
      fontSize="sm"
      fontWeight="medium"
    >
      {DEMO_RENDERER_NOTICE}
    </Box>
  );
}

/** On images the demo renderer drew. */
export function DemoBadge(props: BadgeProps) {
  return (
    <Badge colorPalette="orange" variant="solid" title="Drawn by the demo renderer, not by AI" data-testid="demo-badge" {...props}>
      Demo
    </Badge>
  );
}

export function VisibilityBadge({ isPublic, ...props }: { isPublic: boolean } & BadgeProps) {
  return (
    <Badge colorPalette={isPublic ? 'green' : 'gray'} variant="subtle" data-testid="visibility-badge" {...props}>
      {isPublic ? <GlobeIcon boxSize="3" /> : <LockIcon boxSize="3" />}
      {isPublic ? 'Public' : 'Private'}
    </Badge>
  );
}

/** The owner's public/private switch for one image. */
export function VisibilitySwitch({
  image,
  updating,
  onChange,
}: {
  image: Pick<ImageFieldsFragment, 'id' | 'isPublic'>;
  updating: boolean;
  onChange: (isPublic: boolean) => void;
}) {
  return (
    <Switch.Root
      checked={image.isPublic}
      disabled={updating}
      onCheckedChange={(details) => onChange(details.checked)}
      colorPalette="purple"
      display="flex"
      alignItems="flex-start"
      gap="3"
      data-testid="visibility-switch"
    >
      <Switch.HiddenInput />
      <Switch.Control mt="0.5">
        <Switch.Thumb />
      </Switch.Control>
      <Stack as="span" gap="0">
        <Switch.Label>Public</Switch.Label>
        <Text as="span" fontSize="sm" color="fg.muted">
          {image.isPublic ? 'Everyone can see it in the Public Gallery.' : 'Private: only you can see it.'}
        </Text>
      </Stack>
    </Switch.Root>
  );
}

/** The member's live balance (pushed over the socket, so it drops without a reload). */
export function TokenBalanceBadge({ testId }: { testId: string }) {
  const { tokens } = useCurrentUser();
  const count = tokens ?? 0;
  return (
    <Badge variant="outline" colorPalette="gray" size="lg" title="Token balance: 1 token per image" aria-live="polite">
      <CoinsIcon boxSize="4" />
      <span data-testid={testId}>{count}</span>
      {count === 1 ? 'token' : 'tokens'}
    </Badge>
  );
}
