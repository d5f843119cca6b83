import { graphql } from '../../gql';

export const ChatMessageFragment = graphql(`
  fragment ChatMessage on Message {
    id
    conversationId
    role
    content
    status
    moderationState
    errorCode
    model
    parentId
    edited
    swipeIndex
    swipeCount
    createdAt
    updatedAt
  }
`);

export const ConversationSummaryFragment = graphql(`
  fragment ConversationSummary on Conversation {
    id
    title
    characterId
    characterName
    createdAt
    updatedAt
  }
`);

/** The sidebar lists the member's 100 most recently active conversations. */
export const ConversationsDocument = graphql(`
  query Conversations {
    conversations(first: 100) {
      nodes {
        ...ConversationSummary
      }
    }
  }
`);

export const ConversationByIdDocument = graphql(`
  query ConversationById($id: ID!) {
    conversation(id: $id) {
      ...ConversationSummary
    }
  }
`);

export const ChatProviderDocument = graphql(`
  query ChatProvider {
    chatProvider {
      kind
      model
      isDemo
    }
  }
`);

export const ChatCharacterDocument = graphql(`
  query ChatCharacter($id: ID!) {
    character(id: $id) {
      id
      name
      avatar
    }
  }
`);

export const MessagesPageDocument = graphql(`
  query MessagesPage($conversationId: ID!, $last: Int!, $before: String) {
    messages(conversationId: $conversationId, last: $last, before: $before) {
      nodes {
        ...ChatMessage
      }
      pageInfo {
        hasPreviousPage
        startCursor
      }
    }
  }
`);

export const ChatMessageDocument = graphql(`
  query ChatMessageById($id: ID!) {
    message(id: $id) {
      ...ChatMessage
    }
  }
`);

export const ConversationUpdatesDocument = graphql(`
  subscription ConversationUpdates($conversationId: ID!) {
    conversationUpdates(conversationId: $conversationId) {
      type
      conversationId
      messageId
      swipeIndex
      offset
      text
      typing
      activeLeafId
      message {
        ...ChatMessage
      }
    }
  }
`);

export const CreateConversationDocument = graphql(`
  mutation CreateConversation($title: String, $characterId: ID) {
    createConversation(title: $title, characterId: $characterId) {
      ...ConversationSummary
    }
  }
`);

export const RenameConversationDocument = graphql(`
  mutation RenameConversation($id: ID!, $title: String!) {
    renameConversation(id: $id, title: $title) {
      ...ConversationSummary
    }
  }
`);

export const DeleteConversationDocument = graphql(`
  mutation DeleteConversation($id: ID!) {
    deleteConversation(id: $id)
  }
`);

export const SendMessageDocument = graphql(`
  mutation SendMessage($conversationId: ID!, $content: String!) {
    sendMessage(conversationId: $conversationId, content: $content) {
      userMessage {
        ...ChatMessage
      }
      assistantMessage {
        ...ChatMessage
      }
    }
  }
`);

/** Another version of a reply, beside it (the last one shown when no messageId is given). */
export const RegenerateReplyDocument = graphql(`
  mutation RegenerateReply($conversationId: ID!, $messageId: ID) {
    regenerateReply(conversationId: $conversationId, messageId: $messageId) {
      ...ChatMessage
    }
  }
`);

export const EditMessageDocument = graphql(`
  mutation EditMessage($messageId: ID!, $content: String!) {
    editMessage(messageId: $messageId, content: $content) {
      message {
        ...ChatMessage
      }
      reply {
        ...ChatMessage
      }
    }
  }
`);

export const DeleteMessageDocument = graphql(`
  mutation DeleteMessage($messageId: ID!) {
    deleteMessage(messageId: $messageId) {
      deleted
      conversation {
        id
        activeLeafId
      }
    }
  }
`);

export const ContinueReplyDocument = graphql(`
  mutation ContinueReply($messageId: ID!) {
    continueReply(messageId: $messageId) {
      ...ChatMessage
    }
  }
`);

/** Shows the newest branch through a message. */
export const SwitchBranchDocument = graphql(`
  mutation SwitchBranch($messageId: ID!) {
    switchBranch(messageId: $messageId) {
      id
      activeLeafId
    }
  }
`);

/** Ends the branch shown at a message: the next message sent starts a new branch there. */
export const BranchFromDocument = graphql(`
  mutation BranchFrom($messageId: ID!) {
    branchFrom(messageId: $messageId) {
      id
      activeLeafId
    }
  }
`);

export const SelectSwipeDocument = graphql(`
  mutation SelectSwipe($messageId: ID!, $index: Int!) {
    selectSwipe(messageId: $messageId, index: $index) {
      ...ChatMessage
    }
  }
`);

export const StopReplyDocument = graphql(`
  mutation StopReply($conversationId: ID!) {
    stopReply(conversationId: $conversationId)
  }
`);
