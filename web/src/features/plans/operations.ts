import { graphql } from '../../gql';

export const MyPlanDocument = graphql(`
  query MyPlan {
    myPlan {
      plan
      monthlyTokenAllowance
      balance
      renewsAt
      quotas {
        kind
        used
        limit
        periodEnd
      }
    }
  }
`);
