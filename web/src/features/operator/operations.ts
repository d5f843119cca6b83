import { graphql } from '../../gql';

/** The service instances up now ($SRV.PING/INFO), each with its provider circuits and queue depths. */
export const OperatorServicesDocument = graphql(`
  query OperatorServices {
    operatorServices {
      id
      name
      version
      startedAt
      endpoints
      circuits {
        name
        state
      }
      queues {
        name
        depth
      }
    }
  }
`);

/** Events as they are appended to the stream, from the moment of subscribing. */
export const OperatorEventsDocument = graphql(`
  subscription OperatorEvents($filter: OperatorEventFilter) {
    operatorEvents(filter: $filter) {
      id
      type
      version
      occurredAt
      actorId
      data
    }
  }
`);
