import { graphql } from '../../gql';

export const MyQuotasDocument = graphql(`
  query MyQuotas {
    myQuotas {
      kind
      used
      limit
      periodEnd
    }
  }
`);
