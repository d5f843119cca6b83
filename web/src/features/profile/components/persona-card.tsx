import { Button, Card, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PersonaDialog } from '../../chat-settings';
import { MyPersonaDocument } from '../../chat-settings/operations';

/** Profile's "Chat persona": who the member plays in chats ({{user}}), with Edit. */
export function PersonaCard() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const { data, loading, error } = useQuery(MyPersonaDocument, { errorPolicy: 'all' });
  const persona = data?.myPersona;
  return (
    <Card.Root as="section" aria-labelledby="chat-persona-heading" variant="outline" data-testid="chat-persona">
      <Card.Body gap="3">
        <Flex gap="3" justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap="1" flex="1" minW="12rem">
            <Heading as="h2" id="chat-persona-heading" size="md">
              {t('chatSettings.profileCard.heading')}
            </Heading>
            <Text color="fg.muted" fontSize="sm">
              {t('chatSettings.profileCard.text')}
            </Text>
          </Stack>
          <Button variant="outline" onClick={() => setEditing(true)} disabled={!persona}>
            {t('chatSettings.profileCard.edit')}
          </Button>
        </Flex>
        {persona ? (
          <Stack gap="1" minW="0">
            <Text fontWeight="semibold" wordBreak="break-word" data-testid="chat-persona-name">
              {persona.displayName}
            </Text>
            {!persona.name && (
              <Text fontSize="sm" color="fg.muted">
                {t('chatSettings.profileCard.firstNameUsed')}
              </Text>
            )}
            <Text fontSize="sm" color={persona.description ? 'fg' : 'fg.muted'} whiteSpace="pre-wrap" wordBreak="break-word">
              {persona.description || t('chatSettings.profileCard.noDescription')}
            </Text>
          </Stack>
        ) : loading ? (
          <Skeleton h="10" />
        ) : (
          error && (
            <Text fontSize="sm" color="fg.error" role="alert">
              {t('chatSettings.persona.loadFailed')}
            </Text>
          )
        )}
      </Card.Body>
      <PersonaDialog open={editing} onClose={() => setEditing(false)} />
    </Card.Root>
  );
}
