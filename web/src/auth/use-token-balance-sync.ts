import { useSubscription } from '@apollo/client/react';
import { TokenBalanceChangedDocument } from './auth-operations';

/** Keeps the cached `me.tokens` in step with the live balance pushed over the socket. */
export function useTokenBalanceSync(userId: string): void {
  useSubscription(TokenBalanceChangedDocument, {
    ignoreResults: true,
    onData: ({ client, data }) => {
      const balance = data.data?.tokenBalanceChanged.balance;
      if (typeof balance !== 'number') return;
      client.cache.modify({
        id: client.cache.identify({ __typename: 'User', id: userId }),
        fields: { tokens: () => balance },
      });
    },
    // A lost session is handled by the client's error link; other socket errors leave the last balance.
    onError: () => undefined,
  });
}
