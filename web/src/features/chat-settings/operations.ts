import { graphql } from '../../gql';

export const SamplerSettingsFieldsFragment = graphql(`
  fragment SamplerSettingsFields on SamplerSettings {
    temperature
    topP
    maxTokens
    stop
    presencePenalty
    frequencyPenalty
    extras
  }
`);

export const MemberPersonaFieldsFragment = graphql(`
  fragment MemberPersonaFields on MemberPersona {
    name
    description
    displayName
  }
`);

export const MyPersonaDocument = graphql(`
  query MyPersona {
    myPersona {
      ...MemberPersonaFields
    }
  }
`);

export const UpdatePersonaDocument = graphql(`
  mutation UpdatePersona($input: MemberPersonaInput!) {
    updatePersona(input: $input) {
      ...MemberPersonaFields
    }
  }
`);

/** A conversation's own settings and model, beside the models the provider offers. */
export const ConversationSettingsDocument = graphql(`
  query ConversationSettings($id: ID!) {
    conversation(id: $id) {
      id
      characterId
      characterName
      model
      sampling {
        ...SamplerSettingsFields
      }
    }
    chatModels {
      models
      defaultModel
    }
  }
`);

/** The character's settings, which a conversation's own settings override field by field. */
export const CharacterSamplingDocument = graphql(`
  query CharacterSampling($id: ID!) {
    character(id: $id) {
      id
      name
      sampling {
        ...SamplerSettingsFields
      }
    }
  }
`);

export const UpdateConversationSettingsDocument = graphql(`
  mutation UpdateConversationSettings($id: ID!, $input: ConversationSettingsInput!) {
    updateConversationSettings(id: $id, input: $input) {
      id
      model
      sampling {
        ...SamplerSettingsFields
      }
    }
  }
`);

export const MessagePromptReportDocument = graphql(`
  query MessagePromptReport($id: ID!) {
    message(id: $id) {
      id
      promptReport {
        contextTokens
        replyTokens
        promptTokens
        characterTokens
        summaryTokens
        messagesIncluded
        messagesTotal
        messageTokens
        firstIncludedSeq
        lore {
          label
          tokens
          keys
        }
        loreSkipped {
          label
          reason
        }
      }
    }
  }
`);
