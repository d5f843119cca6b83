import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { chatErrorHandler } from '../chat-errors';
import { defaultConversationTitle } from '../chat-conversations';
import { TOASTS } from '../../../lib/error-toasts';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { ConversationsDocument, CreateConversationDocument } from '../operations';

export interface StartConversationOptions {
  characterId?: string;
  title?: string;
}

/** Creates a conversation (with a character, it opens with its greeting), lists it, and opens it. */
export function useStartConversation() {
  const navigate = useNavigate();
  const { run } = useMutationToast();
  /** The character (or '' for a plain conversation) being started. */
  const [startingFor, setStartingFor] = useState<string | null>(null);

  const start = useCallback(
    async ({ characterId, title }: StartConversationOptions = {}) => {
      setStartingFor(characterId ?? '');
      try {
        const data = await run({
          mutation: CreateConversationDocument,
          variables: { title: title?.trim() || defaultConversationTitle(), characterId: characterId ?? null },
          update(cache, { data: result }) {
            const created = result?.createConversation;
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
          failure: TOASTS.createConversationFailed,
          handleError: chatErrorHandler(TOASTS.createConversationFailed),
        });
        const id = data?.createConversation.id;
        if (!id) return null;
        await navigate(`/chat/${id}`);
        return id;
      } finally {
        setStartingFor(null);
      }
    },
    [navigate, run],
  );

  return { start, startingFor };
}
