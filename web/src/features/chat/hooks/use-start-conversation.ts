import { useApolloClient } from '@apollo/client/react';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeChatError } from '../chat-errors';
import { DEFAULT_CONVERSATION_TITLE } from '../chat-conversations';
import { TOASTS } from '../../../lib/error-toasts';
import { showToast } from '../../../lib/toaster';
import { ConversationsDocument, CreateConversationDocument } from '../operations';

export interface StartConversationOptions {
  characterId?: string;
  title?: string;
}

/** Creates a conversation (with a character, it opens with its greeting), lists it, and opens it. */
export function useStartConversation() {
  const client = useApolloClient();
  const navigate = useNavigate();
  /** The character (or '' for a plain conversation) being started. */
  const [startingFor, setStartingFor] = useState<string | null>(null);

  const start = useCallback(
    async ({ characterId, title }: StartConversationOptions = {}) => {
      setStartingFor(characterId ?? '');
      try {
        const result = await client.mutate({
          mutation: CreateConversationDocument,
          variables: { title: title?.trim() || DEFAULT_CONVERSATION_TITLE, characterId: characterId ?? null },
          update(cache, { data }) {
            const created = data?.createConversation;
            if (!created) return;
            cache.updateQuery({ query: ConversationsDocument }, (existing) =>
              existing
                ? {
                    conversations: {
                      ...existing.conversations,
                      nodes: [created, ...existing.conversations.nodes.filter((c) => c.id !== created.id)],
                    },
                  }
                : existing,
            );
          },
        });
        const id = result.data?.createConversation.id;
        if (!id) throw new Error('createConversation returned no conversation');
        await navigate(`/chat/${id}`);
        return id;
      } catch (error) {
        const { toast } = describeChatError(error, TOASTS.createConversationFailed);
        if (toast) showToast(toast);
        return null;
      } finally {
        setStartingFor(null);
      }
    },
    [client, navigate],
  );

  return { start, startingFor };
}
