import { graphql } from '../../gql';

export const CharacterFieldsFragment = graphql(`
  fragment CharacterFields on Character {
    id
    name
    description
    avatar
    isPublic
    rating
    moderationState
    isMine
    creator
    scenario
    greeting
    exampleDialogue
    systemPrompt
    personality {
      traits
    }
  }
`);

/** The member's 100 newest characters. */
export const MyCharactersDocument = graphql(`
  query MyCharacters {
    characters(first: 100) {
      nodes {
        ...CharacterFields
      }
    }
  }
`);

export const PublicCharactersDocument = graphql(`
  query PublicCharacters($first: Int!) {
    publicCharacters(first: $first) {
      nodes {
        ...CharacterFields
      }
    }
  }
`);

export const SuggestedTraitsDocument = graphql(`
  query SuggestedTraits {
    suggestedTraits
  }
`);

export const CreateCharacterDocument = graphql(`
  mutation CreateCharacter($input: CharacterInput!) {
    createCharacter(input: $input) {
      ...CharacterFields
    }
  }
`);

export const UpdateCharacterDocument = graphql(`
  mutation UpdateCharacter($id: ID!, $input: CharacterPatchInput!) {
    updateCharacter(id: $id, input: $input) {
      ...CharacterFields
    }
  }
`);

export const DeleteCharacterDocument = graphql(`
  mutation DeleteCharacter($id: ID!) {
    deleteCharacter(id: $id)
  }
`);
