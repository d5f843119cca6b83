import { graphql } from '../gql';

export const CurrentUserFragment = graphql(`
  fragment CurrentUser on User {
    id
    email
    firstName
    lastName
    profileImageUrl
    createdAt
    tokens
    role
  }
`);

export const MeDocument = graphql(`
  query Me {
    me {
      ...CurrentUser
    }
  }
`);

export const LoginDocument = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      ...CurrentUser
    }
  }
`);

export const RegisterDocument = graphql(`
  mutation Register($input: RegisterInput!) {
    register(input: $input) {
      ...CurrentUser
    }
  }
`);

export const LogoutDocument = graphql(`
  mutation Logout {
    logout
  }
`);

export const TokenBalanceChangedDocument = graphql(`
  subscription TokenBalanceChanged {
    tokenBalanceChanged {
      balance
      delta
      reason
      occurredAt
    }
  }
`);
