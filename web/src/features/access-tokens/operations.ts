import { graphql } from '../../gql';

export const AccessTokensDocument = graphql(`
  query AccessTokens {
    accessTokens {
      id
      name
      scopes
      prefix
      createdAt
      lastUsedAt
      expiresAt
    }
  }
`);

export const CreateAccessTokenDocument = graphql(`
  mutation CreateAccessToken($input: AccessTokenInput!) {
    createAccessToken(input: $input) {
      secret
      token {
        id
        name
      }
    }
  }
`);

export const RevokeAccessTokenDocument = graphql(`
  mutation RevokeAccessToken($id: ID!) {
    revokeAccessToken(id: $id)
  }
`);
