import { AppError, type TokenScope } from '@app/schema';
import { type DocumentNode, type FragmentDefinitionNode, Kind, type SelectionSetNode, getOperationAST } from 'graphql';

type OperationKind = 'query' | 'mutation' | 'subscription';

const READ = 'read' as const;
const CHAT = 'chat' as const;
const GENERATE = 'generate' as const;

/**
 * The scope each root field needs when called with an access token. A field missing here is not for tokens
 * at all: signing in or out, credentials, tokens themselves, moderation, reports, preferences, operator tools.
 */
export const FIELD_SCOPES: Record<OperationKind, Readonly<Record<string, TokenScope>>> = {
  query: {
    me: READ,
    dashboardStats: READ,
    myQuotas: READ,
    myPlan: READ,
    myAchievements: READ,
    myNotices: READ,
    conversations: READ,
    conversation: READ,
    chatModels: READ,
    myPersona: READ,
    messages: READ,
    message: READ,
    chatProvider: READ,
    characters: READ,
    character: READ,
    publicCharacters: READ,
    suggestedTraits: READ,
    exportCharacterCard: READ,
    stories: READ,
    story: READ,
    storyPath: READ,
    storyMap: READ,
    storyExport: READ,
    myImages: READ,
    publicImages: READ,
    image: READ,
    imageProvider: READ,
    generation: READ,
    activeGenerations: READ,
    node: READ,
    __schema: READ,
    __type: READ,
  },
  mutation: {
    createConversation: CHAT,
    renameConversation: CHAT,
    deleteConversation: CHAT,
    sendMessage: CHAT,
    stopReply: CHAT,
    regenerateReply: CHAT,
    updatePersona: CHAT,
    updateConversationSettings: CHAT,
    selectSwipe: CHAT,
    editMessage: CHAT,
    deleteMessage: CHAT,
    continueReply: CHAT,
    switchBranch: CHAT,
    branchFrom: CHAT,
    createCharacter: CHAT,
    updateCharacter: CHAT,
    deleteCharacter: CHAT,
    importCharacterCard: CHAT,
    startStory: CHAT,
    chooseStoryOption: CHAT,
    takeStoryAction: CHAT,
    retellPassage: CHAT,
    goToPassage: CHAT,
    setSavePoint: CHAT,
    renameStory: CHAT,
    deleteStory: CHAT,
    stopStory: CHAT,
    generateImage: GENERATE,
    cancelGeneration: GENERATE,
    setImageVisibility: GENERATE,
    deleteImage: GENERATE,
    likeImage: GENERATE,
    unlikeImage: GENERATE,
  },
  subscription: {
    conversationUpdates: READ,
    storyUpdates: READ,
    generationUpdates: READ,
    tokenBalanceChanged: READ,
    achievementEarned: READ,
  },
};

/** Root fields deliberately closed to tokens (a test checks every root field is in one list or the other). */
export const CLOSED_TO_TOKENS = [
  'accessTokens',
  'createAccessToken',
  'revokeAccessToken',
  'register',
  'login',
  'logout',
  'grantTokens',
  'grantRole',
  'moderate',
  'moderationQueue',
  'moderationAuditLog',
  'reportContent',
  'requestTakedown',
  'dismissNotice',
  'updateRatingPreferences',
  'recordInterest',
  'operatorServices',
  'operatorEvents',
  // The member's own face photos, profile and account: only the member, signed in to the site.
  'updateProfile',
  'createUploadTarget',
  'registerSelfAiPhoto',
  'mySelfAiPhotos',
  'deleteSelfAiPhoto',
  'setProfilePicture',
  'deleteAccount',
  'accountExportUrl',
] as const;

/** Root fields an operation selects, through fragments too (a fragment cannot smuggle a field past the check). */
function rootFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): string[] {
  const names: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) names.push(...rootFields(selection.selectionSet, fragments, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) names.push(...rootFields(fragment.selectionSet, fragments, seen));
    }
  }
  return names;
}

/**
 * Refuses a GraphQL operation an access token may not run: FORBIDDEN naming the field and the scope it needs.
 * `scopes` null is a browser session, which may do anything its member may.
 */
export function assertOperationAllowed(
  document: DocumentNode,
  operationName: string | null | undefined,
  scopes: TokenScope[] | null,
): void {
  if (!scopes) return;
  const operation = getOperationAST(document, operationName);
  if (!operation) return;
  const fragments = new Map(
    document.definitions.filter((node) => node.kind === Kind.FRAGMENT_DEFINITION).map((node) => [node.name.value, node] as const),
  );
  for (const field of rootFields(operation.selectionSet, fragments)) {
    if (field === '__typename') continue;
    assertScope(FIELD_SCOPES[operation.operation][field], field, scopes);
  }
}

function assertScope(needed: TokenScope | undefined, what: string, scopes: TokenScope[]): void {
  if (!needed) throw new AppError('FORBIDDEN', `Access tokens cannot use ${what}; sign in to the site for it.`);
  if (!scopes.includes(needed)) throw new AppError('FORBIDDEN', `This access token lacks the ${needed} scope that ${what} needs.`);
}

/** `/api` paths a token may write to, by the scope they need; reads need `read`; everything else is not for tokens. */
const REST_WRITE_SCOPES: [RegExp, TokenScope][] = [
  [/^\/(conversations|chat|characters|messages|persona)(\/|$)/, CHAT],
  [/^\/(images|generate|generations)(\/|$)/, GENERATE],
];
/** Reads that are still not for tokens: signing out by link, moderators' files, the member's photos, upload targets and data export. */
const REST_CLOSED_READS = /^\/(logout|signout|login|moderation|self-ai|s3|objects|account)(\/|$)/;

/** The same rule for the `/api` endpoints, by method and path (relative to `/api`). */
export function assertRequestAllowed(method: string, path: string, scopes: TokenScope[] | null): void {
  if (!scopes) return;
  const what = `${method} /api${path}`;
  if (method === 'GET' || method === 'HEAD') {
    assertScope(REST_CLOSED_READS.test(path) ? undefined : READ, what, scopes);
    return;
  }
  assertScope(REST_WRITE_SCOPES.find(([pattern]) => pattern.test(path))?.[1], what, scopes);
}
