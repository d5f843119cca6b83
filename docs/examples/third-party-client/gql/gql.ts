/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query Viewer {\n  me {\n    email\n    tokens\n  }\n  myQuotas {\n    kind\n    used\n    limit\n  }\n}\n\nquery PublicImages($first: Int!, $after: String) {\n  publicImages(first: $first, after: $after, order: NEWEST) {\n    nodes {\n      id\n      prompt\n      imageUrl\n      width\n      height\n      user {\n        firstName\n        lastName\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nquery Characters($first: Int!) {\n  publicCharacters(first: $first) {\n    nodes {\n      id\n      name\n      description\n    }\n  }\n  characters(first: $first) {\n    nodes {\n      id\n      name\n      description\n    }\n  }\n}\n\nmutation CreateCharacter($input: CharacterInput!) {\n  createCharacter(input: $input) {\n    id\n    name\n    description\n  }\n}\n\nmutation StartConversation($characterId: ID!, $title: String!) {\n  createConversation(characterId: $characterId, title: $title) {\n    id\n    title\n  }\n}\n\nfragment ReplyMessage on Message {\n  id\n  role\n  status\n  content\n  errorCode\n}\n\nmutation SendMessage($conversationId: ID!, $content: String!) {\n  sendMessage(conversationId: $conversationId, content: $content) {\n    userMessage {\n      id\n    }\n    assistantMessage {\n      ...ReplyMessage\n    }\n  }\n}\n\nquery Message($id: ID!) {\n  message(id: $id) {\n    ...ReplyMessage\n  }\n}\n\nsubscription ConversationUpdates($conversationId: ID!) {\n  conversationUpdates(conversationId: $conversationId) {\n    type\n    messageId\n    swipeIndex\n    offset\n    text\n    typing\n    message {\n      ...ReplyMessage\n    }\n  }\n}": typeof types.ViewerDocument,
};
const documents: Documents = {
    "query Viewer {\n  me {\n    email\n    tokens\n  }\n  myQuotas {\n    kind\n    used\n    limit\n  }\n}\n\nquery PublicImages($first: Int!, $after: String) {\n  publicImages(first: $first, after: $after, order: NEWEST) {\n    nodes {\n      id\n      prompt\n      imageUrl\n      width\n      height\n      user {\n        firstName\n        lastName\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nquery Characters($first: Int!) {\n  publicCharacters(first: $first) {\n    nodes {\n      id\n      name\n      description\n    }\n  }\n  characters(first: $first) {\n    nodes {\n      id\n      name\n      description\n    }\n  }\n}\n\nmutation CreateCharacter($input: CharacterInput!) {\n  createCharacter(input: $input) {\n    id\n    name\n    description\n  }\n}\n\nmutation StartConversation($characterId: ID!, $title: String!) {\n  createConversation(characterId: $characterId, title: $title) {\n    id\n    title\n  }\n}\n\nfragment ReplyMessage on Message {\n  id\n  role\n  status\n  content\n  errorCode\n}\n\nmutation SendMessage($conversationId: ID!, $content: String!) {\n  sendMessage(conversationId: $conversationId, content: $content) {\n    userMessage {\n      id\n    }\n    assistantMessage {\n      ...ReplyMessage\n    }\n  }\n}\n\nquery Message($id: ID!) {\n  message(id: $id) {\n    ...ReplyMessage\n  }\n}\n\nsubscription ConversationUpdates($conversationId: ID!) {\n  conversationUpdates(conversationId: $conversationId) {\n    type\n    messageId\n    swipeIndex\n    offset\n    text\n    typing\n    message {\n      ...ReplyMessage\n    }\n  }\n}": types.ViewerDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Viewer {\n  me {\n    email\n    tokens\n  }\n  myQuotas {\n    kind\n    used\n    limit\n  }\n}\n\nquery PublicImages($first: Int!, $after: String) {\n  publicImages(first: $first, after: $after, order: NEWEST) {\n    nodes {\n      id\n      prompt\n      imageUrl\n      width\n      height\n      user {\n        firstName\n        lastName\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n\nquery Characters($first: Int!) {\n  publicCharacters(first: $first) {\n    nodes {\n      id\n      name\n      description\n    }\n  }\n  characters(first: $first) {\n    nodes {\n      id\n      name\n      description\n    }\n  }\n}\n\nmutation CreateCharacter($input: CharacterInput!) {\n  createCharacter(input: $input) {\n    id\n    name\n    description\n  }\n}\n\nmutation StartConversation($characterId: ID!, $title: String!) {\n  createConversation(characterId: $characterId, title: $title) {\n    id\n    title\n  }\n}\n\nfragment ReplyMessage on Message {\n  id\n  role\n  status\n  content\n  errorCode\n}\n\nmutation SendMessage($conversationId: ID!, $content: String!) {\n  sendMessage(conversationId: $conversationId, content: $content) {\n    userMessage {\n      id\n    }\n    assistantMessage {\n      ...ReplyMessage\n    }\n  }\n}\n\nquery Message($id: ID!) {\n  message(id: $id) {\n    ...ReplyMessage\n  }\n}\n\nsubscription ConversationUpdates($conversationId: ID!) {\n  conversationUpdates(conversationId: $conversationId) {\n    type\n    messageId\n    swipeIndex\n    offset\n    text\n    typing\n    message {\n      ...ReplyMessage\n    }\n  }\n}"): typeof import('./graphql').ViewerDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
