import { Button, Flex, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { BranchIcon } from '../../../components/icons/chat-icons';

/** Above the composer after "Branch from here": the next message starts a new branch; the latest one is a click away. */
export function BranchNotice({ busy, onBackToLatest }: { busy: boolean; onBackToLatest: () => void }) {
  const { t } = useTranslation();
  return (
    <Flex
      role="status"
      align="center"
      gap="2"
      flexWrap="wrap"
      mb="2"
      px="3"
      py="2"
      rounded="md"
      bg="purple.subtle"
      color="fg"
      fontSize="sm"
      maxW="3xl"
      mx="auto"
      data-testid="branch-notice"
    >
      <BranchIcon boxSize="4" color="purple.fg" flexShrink={0} />
      <Text flex="1" minW="0">
        {t('chat.tree.branchNotice.text')}
      </Text>
      <Button size="xs" variant="outline" colorPalette="purple" loading={busy} onClick={onBackToLatest}>
        {t('chat.tree.branchNotice.backToLatest')}
      </Button>
    </Flex>
  );
}
