import { useApolloClient } from '@apollo/client/react';
import { useEffect, useReducer, useState } from 'react';
import type { OperatorEventsSubscription } from '../../../gql/graphql';
import { createEventFeed, eventFeedReducer, type EventFeed, type EventFeedAction } from '../operator';
import { OperatorEventsDocument } from '../operations';

export type OperatorEvent = OperatorEventsSubscription['operatorEvents'];

/** The filter the stream was (re)started with; a new object restarts it, even with the same values. */
export interface AppliedFilter {
  subject: string;
  memberId: string | null;
}

const feedReducer = (feed: EventFeed<OperatorEvent>, action: EventFeedAction<OperatorEvent>) => eventFeedReducer(feed, action);

/** `live` until the server refuses or the socket gives up (graphql-ws retries a dropped socket on its own first). */
export type StreamStatus = { state: 'live' } | { state: 'ended' } | { state: 'failed'; error: unknown };

/**
 * The operator's live event list: subscribes with `filter`, keeps the newest events (lib/operator.ts),
 * and restarts whenever a new filter object is applied.
 */
export function useOperatorEvents(filter: AppliedFilter): {
  feed: EventFeed<OperatorEvent>;
  status: StreamStatus;
  control: (action: Exclude<EventFeedAction<OperatorEvent>, { type: 'received' }>) => void;
} {
  const client = useApolloClient();
  const [feed, dispatch] = useReducer(feedReducer, undefined, createEventFeed<OperatorEvent>);
  const [status, setStatus] = useState<{ filter: AppliedFilter; status: StreamStatus } | null>(null);

  useEffect(() => {
    const report = (next: StreamStatus) => setStatus({ filter, status: next });
    const subscription = client
      .subscribe({
        query: OperatorEventsDocument,
        variables: { filter: { subject: filter.subject, memberId: filter.memberId } },
        // Events are shown once and let go: nothing of them belongs in the normalised cache.
        fetchPolicy: 'no-cache',
      })
      .subscribe({
        next: (result) => {
          if (result.error) report({ state: 'failed', error: result.error });
          else if (result.data) dispatch({ type: 'received', event: result.data.operatorEvents });
        },
        error: (error: unknown) => report({ state: 'failed', error }),
        complete: () => setStatus((current) => (current?.filter === filter ? current : { filter, status: { state: 'ended' } })),
      });
    return () => subscription.unsubscribe();
  }, [client, filter]);

  // A status reported for an earlier filter no longer says anything about this stream.
  return { feed, status: status?.filter === filter ? status.status : { state: 'live' }, control: dispatch };
}
