/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

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
    "\n  fragment CurrentUser on User {\n    id\n    email\n    firstName\n    lastName\n    profileImageUrl\n    createdAt\n    tokens\n    role\n  }\n": typeof types.CurrentUserFragmentDoc,
    "\n  query Me {\n    me {\n      ...CurrentUser\n    }\n  }\n": typeof types.MeDocument,
    "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      ...CurrentUser\n    }\n  }\n": typeof types.LoginDocument,
    "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      ...CurrentUser\n    }\n  }\n": typeof types.RegisterDocument,
    "\n  mutation Logout {\n    logout\n  }\n": typeof types.LogoutDocument,
    "\n  subscription TokenBalanceChanged {\n    tokenBalanceChanged {\n      balance\n      delta\n      reason\n      occurredAt\n    }\n  }\n": typeof types.TokenBalanceChangedDocument,
    "\n  query ProviderBanner {\n    chatProvider {\n      model\n      isDemo\n      source\n      server\n    }\n    imageProvider {\n      model\n      isDemo\n      source\n      server\n    }\n  }\n": typeof types.ProviderBannerDocument,
    "\n  query AccessTokens {\n    accessTokens {\n      id\n      name\n      scopes\n      prefix\n      createdAt\n      lastUsedAt\n      expiresAt\n    }\n  }\n": typeof types.AccessTokensDocument,
    "\n  mutation CreateAccessToken($input: AccessTokenInput!) {\n    createAccessToken(input: $input) {\n      secret\n      token {\n        id\n        name\n      }\n    }\n  }\n": typeof types.CreateAccessTokenDocument,
    "\n  mutation RevokeAccessToken($id: ID!) {\n    revokeAccessToken(id: $id)\n  }\n": typeof types.RevokeAccessTokenDocument,
    "\n  fragment CharacterFields on Character {\n    id\n    name\n    description\n    avatar\n    isPublic\n    rating\n    moderationState\n    isMine\n    creator\n    scenario\n    greeting\n    exampleDialogue\n    systemPrompt\n    personality {\n      traits\n    }\n  }\n": typeof types.CharacterFieldsFragmentDoc,
    "\n  query MyCharacters {\n    characters(first: 100) {\n      nodes {\n        ...CharacterFields\n      }\n    }\n  }\n": typeof types.MyCharactersDocument,
    "\n  query PublicCharacters($first: Int!) {\n    publicCharacters(first: $first) {\n      nodes {\n        ...CharacterFields\n      }\n    }\n  }\n": typeof types.PublicCharactersDocument,
    "\n  query SuggestedTraits {\n    suggestedTraits\n  }\n": typeof types.SuggestedTraitsDocument,
    "\n  mutation CreateCharacter($input: CharacterInput!) {\n    createCharacter(input: $input) {\n      ...CharacterFields\n    }\n  }\n": typeof types.CreateCharacterDocument,
    "\n  mutation UpdateCharacter($id: ID!, $input: CharacterPatchInput!) {\n    updateCharacter(id: $id, input: $input) {\n      ...CharacterFields\n    }\n  }\n": typeof types.UpdateCharacterDocument,
    "\n  mutation DeleteCharacter($id: ID!) {\n    deleteCharacter(id: $id)\n  }\n": typeof types.DeleteCharacterDocument,
    "\n  fragment SamplerSettingsFields on SamplerSettings {\n    temperature\n    topP\n    maxTokens\n    stop\n    presencePenalty\n    frequencyPenalty\n    extras\n  }\n": typeof types.SamplerSettingsFieldsFragmentDoc,
    "\n  fragment MemberPersonaFields on MemberPersona {\n    name\n    description\n    displayName\n  }\n": typeof types.MemberPersonaFieldsFragmentDoc,
    "\n  query MyPersona {\n    myPersona {\n      ...MemberPersonaFields\n    }\n  }\n": typeof types.MyPersonaDocument,
    "\n  mutation UpdatePersona($input: MemberPersonaInput!) {\n    updatePersona(input: $input) {\n      ...MemberPersonaFields\n    }\n  }\n": typeof types.UpdatePersonaDocument,
    "\n  query ConversationSettings($id: ID!) {\n    conversation(id: $id) {\n      id\n      characterId\n      characterName\n      model\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n    chatModels {\n      models\n      defaultModel\n    }\n  }\n": typeof types.ConversationSettingsDocument,
    "\n  query CharacterSampling($id: ID!) {\n    character(id: $id) {\n      id\n      name\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n  }\n": typeof types.CharacterSamplingDocument,
    "\n  mutation UpdateConversationSettings($id: ID!, $input: ConversationSettingsInput!) {\n    updateConversationSettings(id: $id, input: $input) {\n      id\n      model\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n  }\n": typeof types.UpdateConversationSettingsDocument,
    "\n  query MessagePromptReport($id: ID!) {\n    message(id: $id) {\n      id\n      promptReport {\n        contextTokens\n        replyTokens\n        promptTokens\n        characterTokens\n        summaryTokens\n        messagesIncluded\n        messagesTotal\n        messageTokens\n        firstIncludedSeq\n        lore {\n          label\n          tokens\n          keys\n        }\n        loreSkipped {\n          label\n          reason\n        }\n      }\n    }\n  }\n": typeof types.MessagePromptReportDocument,
    "\n  fragment ChatMessage on Message {\n    id\n    conversationId\n    role\n    content\n    status\n    moderationState\n    errorCode\n    model\n    parentId\n    edited\n    swipeIndex\n    swipeCount\n    createdAt\n    updatedAt\n  }\n": typeof types.ChatMessageFragmentDoc,
    "\n  fragment ConversationSummary on Conversation {\n    id\n    title\n    characterId\n    characterName\n    createdAt\n    updatedAt\n  }\n": typeof types.ConversationSummaryFragmentDoc,
    "\n  query Conversations {\n    conversations(first: 100) {\n      nodes {\n        ...ConversationSummary\n      }\n    }\n  }\n": typeof types.ConversationsDocument,
    "\n  query ConversationById($id: ID!) {\n    conversation(id: $id) {\n      ...ConversationSummary\n    }\n  }\n": typeof types.ConversationByIdDocument,
    "\n  query ChatProvider {\n    chatProvider {\n      kind\n      model\n      isDemo\n    }\n  }\n": typeof types.ChatProviderDocument,
    "\n  query ChatCharacter($id: ID!) {\n    character(id: $id) {\n      id\n      name\n      avatar\n    }\n  }\n": typeof types.ChatCharacterDocument,
    "\n  query MessagesPage($conversationId: ID!, $last: Int!, $before: String) {\n    messages(conversationId: $conversationId, last: $last, before: $before) {\n      nodes {\n        ...ChatMessage\n      }\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n    }\n  }\n": typeof types.MessagesPageDocument,
    "\n  query ChatMessageById($id: ID!) {\n    message(id: $id) {\n      ...ChatMessage\n    }\n  }\n": typeof types.ChatMessageByIdDocument,
    "\n  subscription ConversationUpdates($conversationId: ID!) {\n    conversationUpdates(conversationId: $conversationId) {\n      type\n      conversationId\n      messageId\n      swipeIndex\n      offset\n      text\n      typing\n      activeLeafId\n      message {\n        ...ChatMessage\n      }\n    }\n  }\n": typeof types.ConversationUpdatesDocument,
    "\n  mutation CreateConversation($title: String, $characterId: ID) {\n    createConversation(title: $title, characterId: $characterId) {\n      ...ConversationSummary\n    }\n  }\n": typeof types.CreateConversationDocument,
    "\n  mutation RenameConversation($id: ID!, $title: String!) {\n    renameConversation(id: $id, title: $title) {\n      ...ConversationSummary\n    }\n  }\n": typeof types.RenameConversationDocument,
    "\n  mutation DeleteConversation($id: ID!) {\n    deleteConversation(id: $id)\n  }\n": typeof types.DeleteConversationDocument,
    "\n  mutation SendMessage($conversationId: ID!, $content: String!) {\n    sendMessage(conversationId: $conversationId, content: $content) {\n      userMessage {\n        ...ChatMessage\n      }\n      assistantMessage {\n        ...ChatMessage\n      }\n    }\n  }\n": typeof types.SendMessageDocument,
    "\n  mutation RegenerateReply($conversationId: ID!, $messageId: ID) {\n    regenerateReply(conversationId: $conversationId, messageId: $messageId) {\n      ...ChatMessage\n    }\n  }\n": typeof types.RegenerateReplyDocument,
    "\n  mutation EditMessage($messageId: ID!, $content: String!) {\n    editMessage(messageId: $messageId, content: $content) {\n      message {\n        ...ChatMessage\n      }\n      reply {\n        ...ChatMessage\n      }\n    }\n  }\n": typeof types.EditMessageDocument,
    "\n  mutation DeleteMessage($messageId: ID!) {\n    deleteMessage(messageId: $messageId) {\n      deleted\n      conversation {\n        id\n        activeLeafId\n      }\n    }\n  }\n": typeof types.DeleteMessageDocument,
    "\n  mutation ContinueReply($messageId: ID!) {\n    continueReply(messageId: $messageId) {\n      ...ChatMessage\n    }\n  }\n": typeof types.ContinueReplyDocument,
    "\n  mutation SwitchBranch($messageId: ID!) {\n    switchBranch(messageId: $messageId) {\n      id\n      activeLeafId\n    }\n  }\n": typeof types.SwitchBranchDocument,
    "\n  mutation BranchFrom($messageId: ID!) {\n    branchFrom(messageId: $messageId) {\n      id\n      activeLeafId\n    }\n  }\n": typeof types.BranchFromDocument,
    "\n  mutation SelectSwipe($messageId: ID!, $index: Int!) {\n    selectSwipe(messageId: $messageId, index: $index) {\n      ...ChatMessage\n    }\n  }\n": typeof types.SelectSwipeDocument,
    "\n  mutation StopReply($conversationId: ID!) {\n    stopReply(conversationId: $conversationId)\n  }\n": typeof types.StopReplyDocument,
    "\n  query MyQuotas {\n    myQuotas {\n      kind\n      used\n      limit\n      periodEnd\n    }\n  }\n": typeof types.MyQuotasDocument,
    "\n  fragment DocumentedErrorCode on ErrorExtensions {\n    code\n  }\n": typeof types.DocumentedErrorCodeFragmentDoc,
    "\n  fragment ImageFields on Image {\n    id\n    imageUrl\n    prompt\n    model\n    isDemo\n    isPublic\n    isMine\n    rating\n    moderationState\n    likes\n    likedByMe\n    createdAt\n    width\n    height\n    placeholder\n    srcSet\n    renditions {\n      width\n      height\n      url\n    }\n    settings {\n      size\n      quality\n      style\n      negativePrompt\n      seed\n      steps\n      cfgScale\n      sampler\n    }\n    user {\n      firstName\n      lastName\n    }\n  }\n": typeof types.ImageFieldsFragmentDoc,
    "\n  fragment GenerationJobFields on GenerationJob {\n    id\n    status\n    progress\n    prompt\n    errorCode\n    errorMessage\n    policyCategory\n    createdAt\n    updatedAt\n    settings {\n      size\n      quality\n      style\n      negativePrompt\n      seed\n      steps\n      cfgScale\n      sampler\n    }\n    image {\n      ...ImageFields\n    }\n  }\n": typeof types.GenerationJobFieldsFragmentDoc,
    "\n  query MyImages($first: Int!, $after: String, $search: String) {\n    myImages(first: $first, after: $after, search: $search) {\n      edges {\n        cursor\n        node {\n          ...ImageFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.MyImagesDocument,
    "\n  query PublicImages($first: Int!, $after: String, $search: String) {\n    publicImages(first: $first, after: $after, search: $search) {\n      edges {\n        cursor\n        node {\n          ...ImageFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.PublicImagesDocument,
    "\n  query ImageProvider {\n    imageProvider {\n      kind\n      model\n      isDemo\n      advanced\n      samplers\n    }\n  }\n": typeof types.ImageProviderDocument,
    "\n  query ActiveGenerations {\n    activeGenerations {\n      ...GenerationJobFields\n    }\n  }\n": typeof types.ActiveGenerationsDocument,
    "\n  query Generation($id: ID!) {\n    generation(id: $id) {\n      ...GenerationJobFields\n    }\n  }\n": typeof types.GenerationDocument,
    "\n  subscription GenerationUpdates {\n    generationUpdates {\n      ...GenerationJobFields\n    }\n  }\n": typeof types.GenerationUpdatesDocument,
    "\n  mutation GenerateImage($input: GenerateImageInput!) {\n    generateImage(input: $input) {\n      ...GenerationJobFields\n    }\n  }\n": typeof types.GenerateImageDocument,
    "\n  mutation CancelGeneration($id: ID!) {\n    cancelGeneration(id: $id) {\n      ...GenerationJobFields\n    }\n  }\n": typeof types.CancelGenerationDocument,
    "\n  mutation SetImageVisibility($id: ID!, $isPublic: Boolean!, $rating: ContentRating) {\n    setImageVisibility(id: $id, isPublic: $isPublic, rating: $rating) {\n      ...ImageFields\n    }\n  }\n": typeof types.SetImageVisibilityDocument,
    "\n  mutation LikeImage($id: ID!) {\n    likeImage(id: $id) {\n      ...ImageFields\n    }\n  }\n": typeof types.LikeImageDocument,
    "\n  mutation UnlikeImage($id: ID!) {\n    unlikeImage(id: $id) {\n      ...ImageFields\n    }\n  }\n": typeof types.UnlikeImageDocument,
    "\n  mutation DeleteImage($id: ID!) {\n    deleteImage(id: $id)\n  }\n": typeof types.DeleteImageDocument,
    "\n  query ViewerContentSettings {\n    me {\n      id\n      ratingPreferences {\n        suggestive\n        explicit\n      }\n      ageAssurance {\n        level\n        method\n        checkedAt\n      }\n    }\n  }\n": typeof types.ViewerContentSettingsDocument,
    "\n  mutation UpdateRatingPreferences($input: RatingPreferencesInput!) {\n    updateRatingPreferences(input: $input) {\n      id\n      ratingPreferences {\n        suggestive\n        explicit\n      }\n    }\n  }\n": typeof types.UpdateRatingPreferencesDocument,
    "\n  mutation ReportContent($input: ReportInput!) {\n    reportContent(input: $input) {\n      caseId\n    }\n  }\n": typeof types.ReportContentDocument,
    "\n  query MyNotices {\n    myNotices {\n      id\n      kind\n      label\n      reason\n      rating\n      targetId\n      targetKind\n      createdAt\n    }\n  }\n": typeof types.MyNoticesDocument,
    "\n  mutation DismissNotice($id: ID!) {\n    dismissNotice(id: $id)\n  }\n": typeof types.DismissNoticeDocument,
    "\n  fragment ModerationTargetFields on ModerationTarget {\n    id\n    kind\n    ownerId\n    title\n    text\n    context\n    imageUrl\n    isPublic\n    rating\n    state\n    createdAt\n  }\n": typeof types.ModerationTargetFieldsFragmentDoc,
    "\n  fragment ModerationCaseFields on ModerationCase {\n    id\n    kind\n    reason\n    details\n    status\n    targetKind\n    targetId\n    targetOwnerId\n    ownerSuspended\n    reporter {\n      id\n      email\n      name\n    }\n    reference\n    requester {\n      name\n      email\n      role\n      signature\n    }\n    createdAt\n    deadlineAt\n    resolveBy\n    snapshot {\n      ...ModerationTargetFields\n    }\n    current {\n      ...ModerationTargetFields\n    }\n  }\n": typeof types.ModerationCaseFieldsFragmentDoc,
    "\n  query ModerationQueue($first: Int!, $after: String) {\n    moderationQueue(status: OPEN, first: $first, after: $after) {\n      openCount\n      hasNextPage\n      endCursor\n      nodes {\n        ...ModerationCaseFields\n      }\n    }\n  }\n": typeof types.ModerationQueueDocument,
    "\n  mutation Moderate($input: ModerationActionInput!) {\n    moderate(input: $input) {\n      id\n      action\n      targetKind\n      targetId\n      caseId\n      reason\n      detail\n      actorLabel\n      occurredAt\n    }\n  }\n": typeof types.ModerateDocument,
    "\n  query ModerationAuditLog($first: Int!, $after: String) {\n    moderationAuditLog(first: $first, after: $after) {\n      hasNextPage\n      endCursor\n      nodes {\n        id\n        occurredAt\n        actorId\n        actorLabel\n        action\n        targetKind\n        targetId\n        caseId\n        reason\n        detail\n      }\n    }\n  }\n": typeof types.ModerationAuditLogDocument,
    "\n  query OperatorServices {\n    operatorServices {\n      id\n      name\n      version\n      startedAt\n      endpoints\n      circuits {\n        name\n        state\n      }\n      queues {\n        name\n        depth\n      }\n    }\n  }\n": typeof types.OperatorServicesDocument,
    "\n  subscription OperatorEvents($filter: OperatorEventFilter) {\n    operatorEvents(filter: $filter) {\n      id\n      type\n      version\n      occurredAt\n      actorId\n      data\n    }\n  }\n": typeof types.OperatorEventsDocument,
    "\n  query MyPlan {\n    myPlan {\n      plan\n      monthlyTokenAllowance\n      balance\n      renewsAt\n      quotas {\n        kind\n        used\n        limit\n        periodEnd\n      }\n    }\n  }\n": typeof types.MyPlanDocument,
    "\n  fragment AchievementFields on Achievement {\n    key\n    threshold\n    progress\n    earned\n    earnedAt\n  }\n": typeof types.AchievementFieldsFragmentDoc,
    "\n  query MyAchievements {\n    myAchievements {\n      ...AchievementFields\n    }\n  }\n": typeof types.MyAchievementsDocument,
    "\n  query Profile {\n    dashboardStats {\n      imagesGenerated\n      chatMessages\n      charactersCreated\n      storiesStarted\n      totalLikes\n      publicImages\n    }\n    myQuotas {\n      kind\n      used\n      limit\n    }\n    # order: NEWEST gives these five their own cache entry, apart from the gallery's paged list.\n    myImages(first: 5, order: NEWEST) {\n      nodes {\n        ...ImageFields\n      }\n    }\n    conversations(first: 5) {\n      nodes {\n        id\n        title\n        characterName\n        updatedAt\n      }\n    }\n  }\n": typeof types.ProfileDocument,
    "\n  subscription AchievementEarned {\n    achievementEarned {\n      ...AchievementFields\n    }\n  }\n": typeof types.AchievementEarnedDocument,
    "\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...CurrentUser\n    }\n  }\n": typeof types.UpdateProfileDocument,
    "\n  fragment StoryFields on Story {\n    id\n    title\n    premise\n    genre\n    tone\n    language\n    characterIds\n    characterNames\n    currentPassageId\n    passageCount\n    createdAt\n    updatedAt\n    lastPlayedAt\n  }\n": typeof types.StoryFieldsFragmentDoc,
    "\n  fragment StoryPassageFields on StoryPassage {\n    id\n    storyId\n    parentId\n    depth\n    actionKind\n    action\n    content\n    choices\n    status\n    model\n    isDemo\n    errorCode\n    savePoint\n    moderationState\n    createdAt\n    updatedAt\n  }\n": typeof types.StoryPassageFieldsFragmentDoc,
    "\n  fragment StoryMapNodeFields on StoryMapNode {\n    id\n    parentId\n    depth\n    actionKind\n    action\n    excerpt\n    status\n    savePoint\n    createdAt\n  }\n": typeof types.StoryMapNodeFieldsFragmentDoc,
    "\n  query Stories {\n    stories(first: 100) {\n      nodes {\n        ...StoryFields\n      }\n      totalCount\n    }\n  }\n": typeof types.StoriesDocument,
    "\n  query StoryById($id: ID!) {\n    story(id: $id) {\n      ...StoryFields\n    }\n  }\n": typeof types.StoryByIdDocument,
    "\n  query StoryPath($storyId: ID!, $passageId: ID) {\n    storyPath(storyId: $storyId, passageId: $passageId) {\n      ...StoryPassageFields\n    }\n  }\n": typeof types.StoryPathDocument,
    "\n  query StoryMap($storyId: ID!) {\n    storyMap(storyId: $storyId) {\n      ...StoryMapNodeFields\n    }\n  }\n": typeof types.StoryMapDocument,
    "\n  query StoryExport($storyId: ID!, $passageId: ID) {\n    storyExport(storyId: $storyId, passageId: $passageId) {\n      fileName\n      markdown\n    }\n  }\n": typeof types.StoryExportDocument,
    "\n  subscription StoryUpdates($storyId: ID!) {\n    storyUpdates(storyId: $storyId) {\n      type\n      storyId\n      typing\n      passageId\n      offset\n      text\n      passage {\n        ...StoryPassageFields\n      }\n      story {\n        ...StoryFields\n      }\n    }\n  }\n": typeof types.StoryUpdatesDocument,
    "\n  mutation StartStory($input: StartStoryInput!) {\n    startStory(input: $input) {\n      story {\n        ...StoryFields\n      }\n      passage {\n        ...StoryPassageFields\n      }\n    }\n  }\n": typeof types.StartStoryDocument,
    "\n  mutation ChooseStoryOption($storyId: ID!, $passageId: ID!, $choiceIndex: Int!) {\n    chooseStoryOption(storyId: $storyId, passageId: $passageId, choiceIndex: $choiceIndex) {\n      ...StoryPassageFields\n    }\n  }\n": typeof types.ChooseStoryOptionDocument,
    "\n  mutation TakeStoryAction($storyId: ID!, $passageId: ID!, $action: String!) {\n    takeStoryAction(storyId: $storyId, passageId: $passageId, action: $action) {\n      ...StoryPassageFields\n    }\n  }\n": typeof types.TakeStoryActionDocument,
    "\n  mutation RetellPassage($storyId: ID!, $passageId: ID!) {\n    retellPassage(storyId: $storyId, passageId: $passageId) {\n      ...StoryPassageFields\n    }\n  }\n": typeof types.RetellPassageDocument,
    "\n  mutation GoToPassage($storyId: ID!, $passageId: ID!) {\n    goToPassage(storyId: $storyId, passageId: $passageId) {\n      ...StoryFields\n    }\n  }\n": typeof types.GoToPassageDocument,
    "\n  mutation SetSavePoint($storyId: ID!, $passageId: ID!, $label: String!) {\n    setSavePoint(storyId: $storyId, passageId: $passageId, label: $label) {\n      ...StoryPassageFields\n    }\n  }\n": typeof types.SetSavePointDocument,
    "\n  mutation RenameStory($id: ID!, $title: String!) {\n    renameStory(id: $id, title: $title) {\n      ...StoryFields\n    }\n  }\n": typeof types.RenameStoryDocument,
    "\n  mutation DeleteStory($id: ID!) {\n    deleteStory(id: $id)\n  }\n": typeof types.DeleteStoryDocument,
    "\n  mutation StopStory($storyId: ID!) {\n    stopStory(storyId: $storyId)\n  }\n": typeof types.StopStoryDocument,
};
const documents: Documents = {
    "\n  fragment CurrentUser on User {\n    id\n    email\n    firstName\n    lastName\n    profileImageUrl\n    createdAt\n    tokens\n    role\n  }\n": types.CurrentUserFragmentDoc,
    "\n  query Me {\n    me {\n      ...CurrentUser\n    }\n  }\n": types.MeDocument,
    "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      ...CurrentUser\n    }\n  }\n": types.LoginDocument,
    "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      ...CurrentUser\n    }\n  }\n": types.RegisterDocument,
    "\n  mutation Logout {\n    logout\n  }\n": types.LogoutDocument,
    "\n  subscription TokenBalanceChanged {\n    tokenBalanceChanged {\n      balance\n      delta\n      reason\n      occurredAt\n    }\n  }\n": types.TokenBalanceChangedDocument,
    "\n  query ProviderBanner {\n    chatProvider {\n      model\n      isDemo\n      source\n      server\n    }\n    imageProvider {\n      model\n      isDemo\n      source\n      server\n    }\n  }\n": types.ProviderBannerDocument,
    "\n  query AccessTokens {\n    accessTokens {\n      id\n      name\n      scopes\n      prefix\n      createdAt\n      lastUsedAt\n      expiresAt\n    }\n  }\n": types.AccessTokensDocument,
    "\n  mutation CreateAccessToken($input: AccessTokenInput!) {\n    createAccessToken(input: $input) {\n      secret\n      token {\n        id\n        name\n      }\n    }\n  }\n": types.CreateAccessTokenDocument,
    "\n  mutation RevokeAccessToken($id: ID!) {\n    revokeAccessToken(id: $id)\n  }\n": types.RevokeAccessTokenDocument,
    "\n  fragment CharacterFields on Character {\n    id\n    name\n    description\n    avatar\n    isPublic\n    rating\n    moderationState\n    isMine\n    creator\n    scenario\n    greeting\n    exampleDialogue\n    systemPrompt\n    personality {\n      traits\n    }\n  }\n": types.CharacterFieldsFragmentDoc,
    "\n  query MyCharacters {\n    characters(first: 100) {\n      nodes {\n        ...CharacterFields\n      }\n    }\n  }\n": types.MyCharactersDocument,
    "\n  query PublicCharacters($first: Int!) {\n    publicCharacters(first: $first) {\n      nodes {\n        ...CharacterFields\n      }\n    }\n  }\n": types.PublicCharactersDocument,
    "\n  query SuggestedTraits {\n    suggestedTraits\n  }\n": types.SuggestedTraitsDocument,
    "\n  mutation CreateCharacter($input: CharacterInput!) {\n    createCharacter(input: $input) {\n      ...CharacterFields\n    }\n  }\n": types.CreateCharacterDocument,
    "\n  mutation UpdateCharacter($id: ID!, $input: CharacterPatchInput!) {\n    updateCharacter(id: $id, input: $input) {\n      ...CharacterFields\n    }\n  }\n": types.UpdateCharacterDocument,
    "\n  mutation DeleteCharacter($id: ID!) {\n    deleteCharacter(id: $id)\n  }\n": types.DeleteCharacterDocument,
    "\n  fragment SamplerSettingsFields on SamplerSettings {\n    temperature\n    topP\n    maxTokens\n    stop\n    presencePenalty\n    frequencyPenalty\n    extras\n  }\n": types.SamplerSettingsFieldsFragmentDoc,
    "\n  fragment MemberPersonaFields on MemberPersona {\n    name\n    description\n    displayName\n  }\n": types.MemberPersonaFieldsFragmentDoc,
    "\n  query MyPersona {\n    myPersona {\n      ...MemberPersonaFields\n    }\n  }\n": types.MyPersonaDocument,
    "\n  mutation UpdatePersona($input: MemberPersonaInput!) {\n    updatePersona(input: $input) {\n      ...MemberPersonaFields\n    }\n  }\n": types.UpdatePersonaDocument,
    "\n  query ConversationSettings($id: ID!) {\n    conversation(id: $id) {\n      id\n      characterId\n      characterName\n      model\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n    chatModels {\n      models\n      defaultModel\n    }\n  }\n": types.ConversationSettingsDocument,
    "\n  query CharacterSampling($id: ID!) {\n    character(id: $id) {\n      id\n      name\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n  }\n": types.CharacterSamplingDocument,
    "\n  mutation UpdateConversationSettings($id: ID!, $input: ConversationSettingsInput!) {\n    updateConversationSettings(id: $id, input: $input) {\n      id\n      model\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n  }\n": types.UpdateConversationSettingsDocument,
    "\n  query MessagePromptReport($id: ID!) {\n    message(id: $id) {\n      id\n      promptReport {\n        contextTokens\n        replyTokens\n        promptTokens\n        characterTokens\n        summaryTokens\n        messagesIncluded\n        messagesTotal\n        messageTokens\n        firstIncludedSeq\n        lore {\n          label\n          tokens\n          keys\n        }\n        loreSkipped {\n          label\n          reason\n        }\n      }\n    }\n  }\n": types.MessagePromptReportDocument,
    "\n  fragment ChatMessage on Message {\n    id\n    conversationId\n    role\n    content\n    status\n    moderationState\n    errorCode\n    model\n    parentId\n    edited\n    swipeIndex\n    swipeCount\n    createdAt\n    updatedAt\n  }\n": types.ChatMessageFragmentDoc,
    "\n  fragment ConversationSummary on Conversation {\n    id\n    title\n    characterId\n    characterName\n    createdAt\n    updatedAt\n  }\n": types.ConversationSummaryFragmentDoc,
    "\n  query Conversations {\n    conversations(first: 100) {\n      nodes {\n        ...ConversationSummary\n      }\n    }\n  }\n": types.ConversationsDocument,
    "\n  query ConversationById($id: ID!) {\n    conversation(id: $id) {\n      ...ConversationSummary\n    }\n  }\n": types.ConversationByIdDocument,
    "\n  query ChatProvider {\n    chatProvider {\n      kind\n      model\n      isDemo\n    }\n  }\n": types.ChatProviderDocument,
    "\n  query ChatCharacter($id: ID!) {\n    character(id: $id) {\n      id\n      name\n      avatar\n    }\n  }\n": types.ChatCharacterDocument,
    "\n  query MessagesPage($conversationId: ID!, $last: Int!, $before: String) {\n    messages(conversationId: $conversationId, last: $last, before: $before) {\n      nodes {\n        ...ChatMessage\n      }\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n    }\n  }\n": types.MessagesPageDocument,
    "\n  query ChatMessageById($id: ID!) {\n    message(id: $id) {\n      ...ChatMessage\n    }\n  }\n": types.ChatMessageByIdDocument,
    "\n  subscription ConversationUpdates($conversationId: ID!) {\n    conversationUpdates(conversationId: $conversationId) {\n      type\n      conversationId\n      messageId\n      swipeIndex\n      offset\n      text\n      typing\n      activeLeafId\n      message {\n        ...ChatMessage\n      }\n    }\n  }\n": types.ConversationUpdatesDocument,
    "\n  mutation CreateConversation($title: String, $characterId: ID) {\n    createConversation(title: $title, characterId: $characterId) {\n      ...ConversationSummary\n    }\n  }\n": types.CreateConversationDocument,
    "\n  mutation RenameConversation($id: ID!, $title: String!) {\n    renameConversation(id: $id, title: $title) {\n      ...ConversationSummary\n    }\n  }\n": types.RenameConversationDocument,
    "\n  mutation DeleteConversation($id: ID!) {\n    deleteConversation(id: $id)\n  }\n": types.DeleteConversationDocument,
    "\n  mutation SendMessage($conversationId: ID!, $content: String!) {\n    sendMessage(conversationId: $conversationId, content: $content) {\n      userMessage {\n        ...ChatMessage\n      }\n      assistantMessage {\n        ...ChatMessage\n      }\n    }\n  }\n": types.SendMessageDocument,
    "\n  mutation RegenerateReply($conversationId: ID!, $messageId: ID) {\n    regenerateReply(conversationId: $conversationId, messageId: $messageId) {\n      ...ChatMessage\n    }\n  }\n": types.RegenerateReplyDocument,
    "\n  mutation EditMessage($messageId: ID!, $content: String!) {\n    editMessage(messageId: $messageId, content: $content) {\n      message {\n        ...ChatMessage\n      }\n      reply {\n        ...ChatMessage\n      }\n    }\n  }\n": types.EditMessageDocument,
    "\n  mutation DeleteMessage($messageId: ID!) {\n    deleteMessage(messageId: $messageId) {\n      deleted\n      conversation {\n        id\n        activeLeafId\n      }\n    }\n  }\n": types.DeleteMessageDocument,
    "\n  mutation ContinueReply($messageId: ID!) {\n    continueReply(messageId: $messageId) {\n      ...ChatMessage\n    }\n  }\n": types.ContinueReplyDocument,
    "\n  mutation SwitchBranch($messageId: ID!) {\n    switchBranch(messageId: $messageId) {\n      id\n      activeLeafId\n    }\n  }\n": types.SwitchBranchDocument,
    "\n  mutation BranchFrom($messageId: ID!) {\n    branchFrom(messageId: $messageId) {\n      id\n      activeLeafId\n    }\n  }\n": types.BranchFromDocument,
    "\n  mutation SelectSwipe($messageId: ID!, $index: Int!) {\n    selectSwipe(messageId: $messageId, index: $index) {\n      ...ChatMessage\n    }\n  }\n": types.SelectSwipeDocument,
    "\n  mutation StopReply($conversationId: ID!) {\n    stopReply(conversationId: $conversationId)\n  }\n": types.StopReplyDocument,
    "\n  query MyQuotas {\n    myQuotas {\n      kind\n      used\n      limit\n      periodEnd\n    }\n  }\n": types.MyQuotasDocument,
    "\n  fragment DocumentedErrorCode on ErrorExtensions {\n    code\n  }\n": types.DocumentedErrorCodeFragmentDoc,
    "\n  fragment ImageFields on Image {\n    id\n    imageUrl\n    prompt\n    model\n    isDemo\n    isPublic\n    isMine\n    rating\n    moderationState\n    likes\n    likedByMe\n    createdAt\n    width\n    height\n    placeholder\n    srcSet\n    renditions {\n      width\n      height\n      url\n    }\n    settings {\n      size\n      quality\n      style\n      negativePrompt\n      seed\n      steps\n      cfgScale\n      sampler\n    }\n    user {\n      firstName\n      lastName\n    }\n  }\n": types.ImageFieldsFragmentDoc,
    "\n  fragment GenerationJobFields on GenerationJob {\n    id\n    status\n    progress\n    prompt\n    errorCode\n    errorMessage\n    policyCategory\n    createdAt\n    updatedAt\n    settings {\n      size\n      quality\n      style\n      negativePrompt\n      seed\n      steps\n      cfgScale\n      sampler\n    }\n    image {\n      ...ImageFields\n    }\n  }\n": types.GenerationJobFieldsFragmentDoc,
    "\n  query MyImages($first: Int!, $after: String, $search: String) {\n    myImages(first: $first, after: $after, search: $search) {\n      edges {\n        cursor\n        node {\n          ...ImageFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.MyImagesDocument,
    "\n  query PublicImages($first: Int!, $after: String, $search: String) {\n    publicImages(first: $first, after: $after, search: $search) {\n      edges {\n        cursor\n        node {\n          ...ImageFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.PublicImagesDocument,
    "\n  query ImageProvider {\n    imageProvider {\n      kind\n      model\n      isDemo\n      advanced\n      samplers\n    }\n  }\n": types.ImageProviderDocument,
    "\n  query ActiveGenerations {\n    activeGenerations {\n      ...GenerationJobFields\n    }\n  }\n": types.ActiveGenerationsDocument,
    "\n  query Generation($id: ID!) {\n    generation(id: $id) {\n      ...GenerationJobFields\n    }\n  }\n": types.GenerationDocument,
    "\n  subscription GenerationUpdates {\n    generationUpdates {\n      ...GenerationJobFields\n    }\n  }\n": types.GenerationUpdatesDocument,
    "\n  mutation GenerateImage($input: GenerateImageInput!) {\n    generateImage(input: $input) {\n      ...GenerationJobFields\n    }\n  }\n": types.GenerateImageDocument,
    "\n  mutation CancelGeneration($id: ID!) {\n    cancelGeneration(id: $id) {\n      ...GenerationJobFields\n    }\n  }\n": types.CancelGenerationDocument,
    "\n  mutation SetImageVisibility($id: ID!, $isPublic: Boolean!, $rating: ContentRating) {\n    setImageVisibility(id: $id, isPublic: $isPublic, rating: $rating) {\n      ...ImageFields\n    }\n  }\n": types.SetImageVisibilityDocument,
    "\n  mutation LikeImage($id: ID!) {\n    likeImage(id: $id) {\n      ...ImageFields\n    }\n  }\n": types.LikeImageDocument,
    "\n  mutation UnlikeImage($id: ID!) {\n    unlikeImage(id: $id) {\n      ...ImageFields\n    }\n  }\n": types.UnlikeImageDocument,
    "\n  mutation DeleteImage($id: ID!) {\n    deleteImage(id: $id)\n  }\n": types.DeleteImageDocument,
    "\n  query ViewerContentSettings {\n    me {\n      id\n      ratingPreferences {\n        suggestive\n        explicit\n      }\n      ageAssurance {\n        level\n        method\n        checkedAt\n      }\n    }\n  }\n": types.ViewerContentSettingsDocument,
    "\n  mutation UpdateRatingPreferences($input: RatingPreferencesInput!) {\n    updateRatingPreferences(input: $input) {\n      id\n      ratingPreferences {\n        suggestive\n        explicit\n      }\n    }\n  }\n": types.UpdateRatingPreferencesDocument,
    "\n  mutation ReportContent($input: ReportInput!) {\n    reportContent(input: $input) {\n      caseId\n    }\n  }\n": types.ReportContentDocument,
    "\n  query MyNotices {\n    myNotices {\n      id\n      kind\n      label\n      reason\n      rating\n      targetId\n      targetKind\n      createdAt\n    }\n  }\n": types.MyNoticesDocument,
    "\n  mutation DismissNotice($id: ID!) {\n    dismissNotice(id: $id)\n  }\n": types.DismissNoticeDocument,
    "\n  fragment ModerationTargetFields on ModerationTarget {\n    id\n    kind\n    ownerId\n    title\n    text\n    context\n    imageUrl\n    isPublic\n    rating\n    state\n    createdAt\n  }\n": types.ModerationTargetFieldsFragmentDoc,
    "\n  fragment ModerationCaseFields on ModerationCase {\n    id\n    kind\n    reason\n    details\n    status\n    targetKind\n    targetId\n    targetOwnerId\n    ownerSuspended\n    reporter {\n      id\n      email\n      name\n    }\n    reference\n    requester {\n      name\n      email\n      role\n      signature\n    }\n    createdAt\n    deadlineAt\n    resolveBy\n    snapshot {\n      ...ModerationTargetFields\n    }\n    current {\n      ...ModerationTargetFields\n    }\n  }\n": types.ModerationCaseFieldsFragmentDoc,
    "\n  query ModerationQueue($first: Int!, $after: String) {\n    moderationQueue(status: OPEN, first: $first, after: $after) {\n      openCount\n      hasNextPage\n      endCursor\n      nodes {\n        ...ModerationCaseFields\n      }\n    }\n  }\n": types.ModerationQueueDocument,
    "\n  mutation Moderate($input: ModerationActionInput!) {\n    moderate(input: $input) {\n      id\n      action\n      targetKind\n      targetId\n      caseId\n      reason\n      detail\n      actorLabel\n      occurredAt\n    }\n  }\n": types.ModerateDocument,
    "\n  query ModerationAuditLog($first: Int!, $after: String) {\n    moderationAuditLog(first: $first, after: $after) {\n      hasNextPage\n      endCursor\n      nodes {\n        id\n        occurredAt\n        actorId\n        actorLabel\n        action\n        targetKind\n        targetId\n        caseId\n        reason\n        detail\n      }\n    }\n  }\n": types.ModerationAuditLogDocument,
    "\n  query OperatorServices {\n    operatorServices {\n      id\n      name\n      version\n      startedAt\n      endpoints\n      circuits {\n        name\n        state\n      }\n      queues {\n        name\n        depth\n      }\n    }\n  }\n": types.OperatorServicesDocument,
    "\n  subscription OperatorEvents($filter: OperatorEventFilter) {\n    operatorEvents(filter: $filter) {\n      id\n      type\n      version\n      occurredAt\n      actorId\n      data\n    }\n  }\n": types.OperatorEventsDocument,
    "\n  query MyPlan {\n    myPlan {\n      plan\n      monthlyTokenAllowance\n      balance\n      renewsAt\n      quotas {\n        kind\n        used\n        limit\n        periodEnd\n      }\n    }\n  }\n": types.MyPlanDocument,
    "\n  fragment AchievementFields on Achievement {\n    key\n    threshold\n    progress\n    earned\n    earnedAt\n  }\n": types.AchievementFieldsFragmentDoc,
    "\n  query MyAchievements {\n    myAchievements {\n      ...AchievementFields\n    }\n  }\n": types.MyAchievementsDocument,
    "\n  query Profile {\n    dashboardStats {\n      imagesGenerated\n      chatMessages\n      charactersCreated\n      storiesStarted\n      totalLikes\n      publicImages\n    }\n    myQuotas {\n      kind\n      used\n      limit\n    }\n    # order: NEWEST gives these five their own cache entry, apart from the gallery's paged list.\n    myImages(first: 5, order: NEWEST) {\n      nodes {\n        ...ImageFields\n      }\n    }\n    conversations(first: 5) {\n      nodes {\n        id\n        title\n        characterName\n        updatedAt\n      }\n    }\n  }\n": types.ProfileDocument,
    "\n  subscription AchievementEarned {\n    achievementEarned {\n      ...AchievementFields\n    }\n  }\n": types.AchievementEarnedDocument,
    "\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...CurrentUser\n    }\n  }\n": types.UpdateProfileDocument,
    "\n  fragment StoryFields on Story {\n    id\n    title\n    premise\n    genre\n    tone\n    language\n    characterIds\n    characterNames\n    currentPassageId\n    passageCount\n    createdAt\n    updatedAt\n    lastPlayedAt\n  }\n": types.StoryFieldsFragmentDoc,
    "\n  fragment StoryPassageFields on StoryPassage {\n    id\n    storyId\n    parentId\n    depth\n    actionKind\n    action\n    content\n    choices\n    status\n    model\n    isDemo\n    errorCode\n    savePoint\n    moderationState\n    createdAt\n    updatedAt\n  }\n": types.StoryPassageFieldsFragmentDoc,
    "\n  fragment StoryMapNodeFields on StoryMapNode {\n    id\n    parentId\n    depth\n    actionKind\n    action\n    excerpt\n    status\n    savePoint\n    createdAt\n  }\n": types.StoryMapNodeFieldsFragmentDoc,
    "\n  query Stories {\n    stories(first: 100) {\n      nodes {\n        ...StoryFields\n      }\n      totalCount\n    }\n  }\n": types.StoriesDocument,
    "\n  query StoryById($id: ID!) {\n    story(id: $id) {\n      ...StoryFields\n    }\n  }\n": types.StoryByIdDocument,
    "\n  query StoryPath($storyId: ID!, $passageId: ID) {\n    storyPath(storyId: $storyId, passageId: $passageId) {\n      ...StoryPassageFields\n    }\n  }\n": types.StoryPathDocument,
    "\n  query StoryMap($storyId: ID!) {\n    storyMap(storyId: $storyId) {\n      ...StoryMapNodeFields\n    }\n  }\n": types.StoryMapDocument,
    "\n  query StoryExport($storyId: ID!, $passageId: ID) {\n    storyExport(storyId: $storyId, passageId: $passageId) {\n      fileName\n      markdown\n    }\n  }\n": types.StoryExportDocument,
    "\n  subscription StoryUpdates($storyId: ID!) {\n    storyUpdates(storyId: $storyId) {\n      type\n      storyId\n      typing\n      passageId\n      offset\n      text\n      passage {\n        ...StoryPassageFields\n      }\n      story {\n        ...StoryFields\n      }\n    }\n  }\n": types.StoryUpdatesDocument,
    "\n  mutation StartStory($input: StartStoryInput!) {\n    startStory(input: $input) {\n      story {\n        ...StoryFields\n      }\n      passage {\n        ...StoryPassageFields\n      }\n    }\n  }\n": types.StartStoryDocument,
    "\n  mutation ChooseStoryOption($storyId: ID!, $passageId: ID!, $choiceIndex: Int!) {\n    chooseStoryOption(storyId: $storyId, passageId: $passageId, choiceIndex: $choiceIndex) {\n      ...StoryPassageFields\n    }\n  }\n": types.ChooseStoryOptionDocument,
    "\n  mutation TakeStoryAction($storyId: ID!, $passageId: ID!, $action: String!) {\n    takeStoryAction(storyId: $storyId, passageId: $passageId, action: $action) {\n      ...StoryPassageFields\n    }\n  }\n": types.TakeStoryActionDocument,
    "\n  mutation RetellPassage($storyId: ID!, $passageId: ID!) {\n    retellPassage(storyId: $storyId, passageId: $passageId) {\n      ...StoryPassageFields\n    }\n  }\n": types.RetellPassageDocument,
    "\n  mutation GoToPassage($storyId: ID!, $passageId: ID!) {\n    goToPassage(storyId: $storyId, passageId: $passageId) {\n      ...StoryFields\n    }\n  }\n": types.GoToPassageDocument,
    "\n  mutation SetSavePoint($storyId: ID!, $passageId: ID!, $label: String!) {\n    setSavePoint(storyId: $storyId, passageId: $passageId, label: $label) {\n      ...StoryPassageFields\n    }\n  }\n": types.SetSavePointDocument,
    "\n  mutation RenameStory($id: ID!, $title: String!) {\n    renameStory(id: $id, title: $title) {\n      ...StoryFields\n    }\n  }\n": types.RenameStoryDocument,
    "\n  mutation DeleteStory($id: ID!) {\n    deleteStory(id: $id)\n  }\n": types.DeleteStoryDocument,
    "\n  mutation StopStory($storyId: ID!) {\n    stopStory(storyId: $storyId)\n  }\n": types.StopStoryDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CurrentUser on User {\n    id\n    email\n    firstName\n    lastName\n    profileImageUrl\n    createdAt\n    tokens\n    role\n  }\n"): (typeof documents)["\n  fragment CurrentUser on User {\n    id\n    email\n    firstName\n    lastName\n    profileImageUrl\n    createdAt\n    tokens\n    role\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      ...CurrentUser\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      ...CurrentUser\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      ...CurrentUser\n    }\n  }\n"): (typeof documents)["\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      ...CurrentUser\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      ...CurrentUser\n    }\n  }\n"): (typeof documents)["\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      ...CurrentUser\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Logout {\n    logout\n  }\n"): (typeof documents)["\n  mutation Logout {\n    logout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TokenBalanceChanged {\n    tokenBalanceChanged {\n      balance\n      delta\n      reason\n      occurredAt\n    }\n  }\n"): (typeof documents)["\n  subscription TokenBalanceChanged {\n    tokenBalanceChanged {\n      balance\n      delta\n      reason\n      occurredAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProviderBanner {\n    chatProvider {\n      model\n      isDemo\n      source\n      server\n    }\n    imageProvider {\n      model\n      isDemo\n      source\n      server\n    }\n  }\n"): (typeof documents)["\n  query ProviderBanner {\n    chatProvider {\n      model\n      isDemo\n      source\n      server\n    }\n    imageProvider {\n      model\n      isDemo\n      source\n      server\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccessTokens {\n    accessTokens {\n      id\n      name\n      scopes\n      prefix\n      createdAt\n      lastUsedAt\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  query AccessTokens {\n    accessTokens {\n      id\n      name\n      scopes\n      prefix\n      createdAt\n      lastUsedAt\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateAccessToken($input: AccessTokenInput!) {\n    createAccessToken(input: $input) {\n      secret\n      token {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateAccessToken($input: AccessTokenInput!) {\n    createAccessToken(input: $input) {\n      secret\n      token {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeAccessToken($id: ID!) {\n    revokeAccessToken(id: $id)\n  }\n"): (typeof documents)["\n  mutation RevokeAccessToken($id: ID!) {\n    revokeAccessToken(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CharacterFields on Character {\n    id\n    name\n    description\n    avatar\n    isPublic\n    rating\n    moderationState\n    isMine\n    creator\n    scenario\n    greeting\n    exampleDialogue\n    systemPrompt\n    personality {\n      traits\n    }\n  }\n"): (typeof documents)["\n  fragment CharacterFields on Character {\n    id\n    name\n    description\n    avatar\n    isPublic\n    rating\n    moderationState\n    isMine\n    creator\n    scenario\n    greeting\n    exampleDialogue\n    systemPrompt\n    personality {\n      traits\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyCharacters {\n    characters(first: 100) {\n      nodes {\n        ...CharacterFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query MyCharacters {\n    characters(first: 100) {\n      nodes {\n        ...CharacterFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PublicCharacters($first: Int!) {\n    publicCharacters(first: $first) {\n      nodes {\n        ...CharacterFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query PublicCharacters($first: Int!) {\n    publicCharacters(first: $first) {\n      nodes {\n        ...CharacterFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SuggestedTraits {\n    suggestedTraits\n  }\n"): (typeof documents)["\n  query SuggestedTraits {\n    suggestedTraits\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCharacter($input: CharacterInput!) {\n    createCharacter(input: $input) {\n      ...CharacterFields\n    }\n  }\n"): (typeof documents)["\n  mutation CreateCharacter($input: CharacterInput!) {\n    createCharacter(input: $input) {\n      ...CharacterFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateCharacter($id: ID!, $input: CharacterPatchInput!) {\n    updateCharacter(id: $id, input: $input) {\n      ...CharacterFields\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateCharacter($id: ID!, $input: CharacterPatchInput!) {\n    updateCharacter(id: $id, input: $input) {\n      ...CharacterFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteCharacter($id: ID!) {\n    deleteCharacter(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteCharacter($id: ID!) {\n    deleteCharacter(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SamplerSettingsFields on SamplerSettings {\n    temperature\n    topP\n    maxTokens\n    stop\n    presencePenalty\n    frequencyPenalty\n    extras\n  }\n"): (typeof documents)["\n  fragment SamplerSettingsFields on SamplerSettings {\n    temperature\n    topP\n    maxTokens\n    stop\n    presencePenalty\n    frequencyPenalty\n    extras\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MemberPersonaFields on MemberPersona {\n    name\n    description\n    displayName\n  }\n"): (typeof documents)["\n  fragment MemberPersonaFields on MemberPersona {\n    name\n    description\n    displayName\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyPersona {\n    myPersona {\n      ...MemberPersonaFields\n    }\n  }\n"): (typeof documents)["\n  query MyPersona {\n    myPersona {\n      ...MemberPersonaFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdatePersona($input: MemberPersonaInput!) {\n    updatePersona(input: $input) {\n      ...MemberPersonaFields\n    }\n  }\n"): (typeof documents)["\n  mutation UpdatePersona($input: MemberPersonaInput!) {\n    updatePersona(input: $input) {\n      ...MemberPersonaFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConversationSettings($id: ID!) {\n    conversation(id: $id) {\n      id\n      characterId\n      characterName\n      model\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n    chatModels {\n      models\n      defaultModel\n    }\n  }\n"): (typeof documents)["\n  query ConversationSettings($id: ID!) {\n    conversation(id: $id) {\n      id\n      characterId\n      characterName\n      model\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n    chatModels {\n      models\n      defaultModel\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CharacterSampling($id: ID!) {\n    character(id: $id) {\n      id\n      name\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query CharacterSampling($id: ID!) {\n    character(id: $id) {\n      id\n      name\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateConversationSettings($id: ID!, $input: ConversationSettingsInput!) {\n    updateConversationSettings(id: $id, input: $input) {\n      id\n      model\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateConversationSettings($id: ID!, $input: ConversationSettingsInput!) {\n    updateConversationSettings(id: $id, input: $input) {\n      id\n      model\n      sampling {\n        ...SamplerSettingsFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MessagePromptReport($id: ID!) {\n    message(id: $id) {\n      id\n      promptReport {\n        contextTokens\n        replyTokens\n        promptTokens\n        characterTokens\n        summaryTokens\n        messagesIncluded\n        messagesTotal\n        messageTokens\n        firstIncludedSeq\n        lore {\n          label\n          tokens\n          keys\n        }\n        loreSkipped {\n          label\n          reason\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query MessagePromptReport($id: ID!) {\n    message(id: $id) {\n      id\n      promptReport {\n        contextTokens\n        replyTokens\n        promptTokens\n        characterTokens\n        summaryTokens\n        messagesIncluded\n        messagesTotal\n        messageTokens\n        firstIncludedSeq\n        lore {\n          label\n          tokens\n          keys\n        }\n        loreSkipped {\n          label\n          reason\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChatMessage on Message {\n    id\n    conversationId\n    role\n    content\n    status\n    moderationState\n    errorCode\n    model\n    parentId\n    edited\n    swipeIndex\n    swipeCount\n    createdAt\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment ChatMessage on Message {\n    id\n    conversationId\n    role\n    content\n    status\n    moderationState\n    errorCode\n    model\n    parentId\n    edited\n    swipeIndex\n    swipeCount\n    createdAt\n    updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConversationSummary on Conversation {\n    id\n    title\n    characterId\n    characterName\n    createdAt\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment ConversationSummary on Conversation {\n    id\n    title\n    characterId\n    characterName\n    createdAt\n    updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Conversations {\n    conversations(first: 100) {\n      nodes {\n        ...ConversationSummary\n      }\n    }\n  }\n"): (typeof documents)["\n  query Conversations {\n    conversations(first: 100) {\n      nodes {\n        ...ConversationSummary\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConversationById($id: ID!) {\n    conversation(id: $id) {\n      ...ConversationSummary\n    }\n  }\n"): (typeof documents)["\n  query ConversationById($id: ID!) {\n    conversation(id: $id) {\n      ...ConversationSummary\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChatProvider {\n    chatProvider {\n      kind\n      model\n      isDemo\n    }\n  }\n"): (typeof documents)["\n  query ChatProvider {\n    chatProvider {\n      kind\n      model\n      isDemo\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChatCharacter($id: ID!) {\n    character(id: $id) {\n      id\n      name\n      avatar\n    }\n  }\n"): (typeof documents)["\n  query ChatCharacter($id: ID!) {\n    character(id: $id) {\n      id\n      name\n      avatar\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MessagesPage($conversationId: ID!, $last: Int!, $before: String) {\n    messages(conversationId: $conversationId, last: $last, before: $before) {\n      nodes {\n        ...ChatMessage\n      }\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query MessagesPage($conversationId: ID!, $last: Int!, $before: String) {\n    messages(conversationId: $conversationId, last: $last, before: $before) {\n      nodes {\n        ...ChatMessage\n      }\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChatMessageById($id: ID!) {\n    message(id: $id) {\n      ...ChatMessage\n    }\n  }\n"): (typeof documents)["\n  query ChatMessageById($id: ID!) {\n    message(id: $id) {\n      ...ChatMessage\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConversationUpdates($conversationId: ID!) {\n    conversationUpdates(conversationId: $conversationId) {\n      type\n      conversationId\n      messageId\n      swipeIndex\n      offset\n      text\n      typing\n      activeLeafId\n      message {\n        ...ChatMessage\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ConversationUpdates($conversationId: ID!) {\n    conversationUpdates(conversationId: $conversationId) {\n      type\n      conversationId\n      messageId\n      swipeIndex\n      offset\n      text\n      typing\n      activeLeafId\n      message {\n        ...ChatMessage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateConversation($title: String, $characterId: ID) {\n    createConversation(title: $title, characterId: $characterId) {\n      ...ConversationSummary\n    }\n  }\n"): (typeof documents)["\n  mutation CreateConversation($title: String, $characterId: ID) {\n    createConversation(title: $title, characterId: $characterId) {\n      ...ConversationSummary\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameConversation($id: ID!, $title: String!) {\n    renameConversation(id: $id, title: $title) {\n      ...ConversationSummary\n    }\n  }\n"): (typeof documents)["\n  mutation RenameConversation($id: ID!, $title: String!) {\n    renameConversation(id: $id, title: $title) {\n      ...ConversationSummary\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteConversation($id: ID!) {\n    deleteConversation(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteConversation($id: ID!) {\n    deleteConversation(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendMessage($conversationId: ID!, $content: String!) {\n    sendMessage(conversationId: $conversationId, content: $content) {\n      userMessage {\n        ...ChatMessage\n      }\n      assistantMessage {\n        ...ChatMessage\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SendMessage($conversationId: ID!, $content: String!) {\n    sendMessage(conversationId: $conversationId, content: $content) {\n      userMessage {\n        ...ChatMessage\n      }\n      assistantMessage {\n        ...ChatMessage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegenerateReply($conversationId: ID!, $messageId: ID) {\n    regenerateReply(conversationId: $conversationId, messageId: $messageId) {\n      ...ChatMessage\n    }\n  }\n"): (typeof documents)["\n  mutation RegenerateReply($conversationId: ID!, $messageId: ID) {\n    regenerateReply(conversationId: $conversationId, messageId: $messageId) {\n      ...ChatMessage\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditMessage($messageId: ID!, $content: String!) {\n    editMessage(messageId: $messageId, content: $content) {\n      message {\n        ...ChatMessage\n      }\n      reply {\n        ...ChatMessage\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation EditMessage($messageId: ID!, $content: String!) {\n    editMessage(messageId: $messageId, content: $content) {\n      message {\n        ...ChatMessage\n      }\n      reply {\n        ...ChatMessage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteMessage($messageId: ID!) {\n    deleteMessage(messageId: $messageId) {\n      deleted\n      conversation {\n        id\n        activeLeafId\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteMessage($messageId: ID!) {\n    deleteMessage(messageId: $messageId) {\n      deleted\n      conversation {\n        id\n        activeLeafId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ContinueReply($messageId: ID!) {\n    continueReply(messageId: $messageId) {\n      ...ChatMessage\n    }\n  }\n"): (typeof documents)["\n  mutation ContinueReply($messageId: ID!) {\n    continueReply(messageId: $messageId) {\n      ...ChatMessage\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SwitchBranch($messageId: ID!) {\n    switchBranch(messageId: $messageId) {\n      id\n      activeLeafId\n    }\n  }\n"): (typeof documents)["\n  mutation SwitchBranch($messageId: ID!) {\n    switchBranch(messageId: $messageId) {\n      id\n      activeLeafId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BranchFrom($messageId: ID!) {\n    branchFrom(messageId: $messageId) {\n      id\n      activeLeafId\n    }\n  }\n"): (typeof documents)["\n  mutation BranchFrom($messageId: ID!) {\n    branchFrom(messageId: $messageId) {\n      id\n      activeLeafId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SelectSwipe($messageId: ID!, $index: Int!) {\n    selectSwipe(messageId: $messageId, index: $index) {\n      ...ChatMessage\n    }\n  }\n"): (typeof documents)["\n  mutation SelectSwipe($messageId: ID!, $index: Int!) {\n    selectSwipe(messageId: $messageId, index: $index) {\n      ...ChatMessage\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StopReply($conversationId: ID!) {\n    stopReply(conversationId: $conversationId)\n  }\n"): (typeof documents)["\n  mutation StopReply($conversationId: ID!) {\n    stopReply(conversationId: $conversationId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyQuotas {\n    myQuotas {\n      kind\n      used\n      limit\n      periodEnd\n    }\n  }\n"): (typeof documents)["\n  query MyQuotas {\n    myQuotas {\n      kind\n      used\n      limit\n      periodEnd\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DocumentedErrorCode on ErrorExtensions {\n    code\n  }\n"): (typeof documents)["\n  fragment DocumentedErrorCode on ErrorExtensions {\n    code\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ImageFields on Image {\n    id\n    imageUrl\n    prompt\n    model\n    isDemo\n    isPublic\n    isMine\n    rating\n    moderationState\n    likes\n    likedByMe\n    createdAt\n    width\n    height\n    placeholder\n    srcSet\n    renditions {\n      width\n      height\n      url\n    }\n    settings {\n      size\n      quality\n      style\n      negativePrompt\n      seed\n      steps\n      cfgScale\n      sampler\n    }\n    user {\n      firstName\n      lastName\n    }\n  }\n"): (typeof documents)["\n  fragment ImageFields on Image {\n    id\n    imageUrl\n    prompt\n    model\n    isDemo\n    isPublic\n    isMine\n    rating\n    moderationState\n    likes\n    likedByMe\n    createdAt\n    width\n    height\n    placeholder\n    srcSet\n    renditions {\n      width\n      height\n      url\n    }\n    settings {\n      size\n      quality\n      style\n      negativePrompt\n      seed\n      steps\n      cfgScale\n      sampler\n    }\n    user {\n      firstName\n      lastName\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment GenerationJobFields on GenerationJob {\n    id\n    status\n    progress\n    prompt\n    errorCode\n    errorMessage\n    policyCategory\n    createdAt\n    updatedAt\n    settings {\n      size\n      quality\n      style\n      negativePrompt\n      seed\n      steps\n      cfgScale\n      sampler\n    }\n    image {\n      ...ImageFields\n    }\n  }\n"): (typeof documents)["\n  fragment GenerationJobFields on GenerationJob {\n    id\n    status\n    progress\n    prompt\n    errorCode\n    errorMessage\n    policyCategory\n    createdAt\n    updatedAt\n    settings {\n      size\n      quality\n      style\n      negativePrompt\n      seed\n      steps\n      cfgScale\n      sampler\n    }\n    image {\n      ...ImageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyImages($first: Int!, $after: String, $search: String) {\n    myImages(first: $first, after: $after, search: $search) {\n      edges {\n        cursor\n        node {\n          ...ImageFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query MyImages($first: Int!, $after: String, $search: String) {\n    myImages(first: $first, after: $after, search: $search) {\n      edges {\n        cursor\n        node {\n          ...ImageFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PublicImages($first: Int!, $after: String, $search: String) {\n    publicImages(first: $first, after: $after, search: $search) {\n      edges {\n        cursor\n        node {\n          ...ImageFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query PublicImages($first: Int!, $after: String, $search: String) {\n    publicImages(first: $first, after: $after, search: $search) {\n      edges {\n        cursor\n        node {\n          ...ImageFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ImageProvider {\n    imageProvider {\n      kind\n      model\n      isDemo\n      advanced\n      samplers\n    }\n  }\n"): (typeof documents)["\n  query ImageProvider {\n    imageProvider {\n      kind\n      model\n      isDemo\n      advanced\n      samplers\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ActiveGenerations {\n    activeGenerations {\n      ...GenerationJobFields\n    }\n  }\n"): (typeof documents)["\n  query ActiveGenerations {\n    activeGenerations {\n      ...GenerationJobFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Generation($id: ID!) {\n    generation(id: $id) {\n      ...GenerationJobFields\n    }\n  }\n"): (typeof documents)["\n  query Generation($id: ID!) {\n    generation(id: $id) {\n      ...GenerationJobFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription GenerationUpdates {\n    generationUpdates {\n      ...GenerationJobFields\n    }\n  }\n"): (typeof documents)["\n  subscription GenerationUpdates {\n    generationUpdates {\n      ...GenerationJobFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GenerateImage($input: GenerateImageInput!) {\n    generateImage(input: $input) {\n      ...GenerationJobFields\n    }\n  }\n"): (typeof documents)["\n  mutation GenerateImage($input: GenerateImageInput!) {\n    generateImage(input: $input) {\n      ...GenerationJobFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelGeneration($id: ID!) {\n    cancelGeneration(id: $id) {\n      ...GenerationJobFields\n    }\n  }\n"): (typeof documents)["\n  mutation CancelGeneration($id: ID!) {\n    cancelGeneration(id: $id) {\n      ...GenerationJobFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetImageVisibility($id: ID!, $isPublic: Boolean!, $rating: ContentRating) {\n    setImageVisibility(id: $id, isPublic: $isPublic, rating: $rating) {\n      ...ImageFields\n    }\n  }\n"): (typeof documents)["\n  mutation SetImageVisibility($id: ID!, $isPublic: Boolean!, $rating: ContentRating) {\n    setImageVisibility(id: $id, isPublic: $isPublic, rating: $rating) {\n      ...ImageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LikeImage($id: ID!) {\n    likeImage(id: $id) {\n      ...ImageFields\n    }\n  }\n"): (typeof documents)["\n  mutation LikeImage($id: ID!) {\n    likeImage(id: $id) {\n      ...ImageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UnlikeImage($id: ID!) {\n    unlikeImage(id: $id) {\n      ...ImageFields\n    }\n  }\n"): (typeof documents)["\n  mutation UnlikeImage($id: ID!) {\n    unlikeImage(id: $id) {\n      ...ImageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteImage($id: ID!) {\n    deleteImage(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteImage($id: ID!) {\n    deleteImage(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ViewerContentSettings {\n    me {\n      id\n      ratingPreferences {\n        suggestive\n        explicit\n      }\n      ageAssurance {\n        level\n        method\n        checkedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query ViewerContentSettings {\n    me {\n      id\n      ratingPreferences {\n        suggestive\n        explicit\n      }\n      ageAssurance {\n        level\n        method\n        checkedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateRatingPreferences($input: RatingPreferencesInput!) {\n    updateRatingPreferences(input: $input) {\n      id\n      ratingPreferences {\n        suggestive\n        explicit\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateRatingPreferences($input: RatingPreferencesInput!) {\n    updateRatingPreferences(input: $input) {\n      id\n      ratingPreferences {\n        suggestive\n        explicit\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReportContent($input: ReportInput!) {\n    reportContent(input: $input) {\n      caseId\n    }\n  }\n"): (typeof documents)["\n  mutation ReportContent($input: ReportInput!) {\n    reportContent(input: $input) {\n      caseId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyNotices {\n    myNotices {\n      id\n      kind\n      label\n      reason\n      rating\n      targetId\n      targetKind\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  query MyNotices {\n    myNotices {\n      id\n      kind\n      label\n      reason\n      rating\n      targetId\n      targetKind\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DismissNotice($id: ID!) {\n    dismissNotice(id: $id)\n  }\n"): (typeof documents)["\n  mutation DismissNotice($id: ID!) {\n    dismissNotice(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ModerationTargetFields on ModerationTarget {\n    id\n    kind\n    ownerId\n    title\n    text\n    context\n    imageUrl\n    isPublic\n    rating\n    state\n    createdAt\n  }\n"): (typeof documents)["\n  fragment ModerationTargetFields on ModerationTarget {\n    id\n    kind\n    ownerId\n    title\n    text\n    context\n    imageUrl\n    isPublic\n    rating\n    state\n    createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ModerationCaseFields on ModerationCase {\n    id\n    kind\n    reason\n    details\n    status\n    targetKind\n    targetId\n    targetOwnerId\n    ownerSuspended\n    reporter {\n      id\n      email\n      name\n    }\n    reference\n    requester {\n      name\n      email\n      role\n      signature\n    }\n    createdAt\n    deadlineAt\n    resolveBy\n    snapshot {\n      ...ModerationTargetFields\n    }\n    current {\n      ...ModerationTargetFields\n    }\n  }\n"): (typeof documents)["\n  fragment ModerationCaseFields on ModerationCase {\n    id\n    kind\n    reason\n    details\n    status\n    targetKind\n    targetId\n    targetOwnerId\n    ownerSuspended\n    reporter {\n      id\n      email\n      name\n    }\n    reference\n    requester {\n      name\n      email\n      role\n      signature\n    }\n    createdAt\n    deadlineAt\n    resolveBy\n    snapshot {\n      ...ModerationTargetFields\n    }\n    current {\n      ...ModerationTargetFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ModerationQueue($first: Int!, $after: String) {\n    moderationQueue(status: OPEN, first: $first, after: $after) {\n      openCount\n      hasNextPage\n      endCursor\n      nodes {\n        ...ModerationCaseFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query ModerationQueue($first: Int!, $after: String) {\n    moderationQueue(status: OPEN, first: $first, after: $after) {\n      openCount\n      hasNextPage\n      endCursor\n      nodes {\n        ...ModerationCaseFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Moderate($input: ModerationActionInput!) {\n    moderate(input: $input) {\n      id\n      action\n      targetKind\n      targetId\n      caseId\n      reason\n      detail\n      actorLabel\n      occurredAt\n    }\n  }\n"): (typeof documents)["\n  mutation Moderate($input: ModerationActionInput!) {\n    moderate(input: $input) {\n      id\n      action\n      targetKind\n      targetId\n      caseId\n      reason\n      detail\n      actorLabel\n      occurredAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ModerationAuditLog($first: Int!, $after: String) {\n    moderationAuditLog(first: $first, after: $after) {\n      hasNextPage\n      endCursor\n      nodes {\n        id\n        occurredAt\n        actorId\n        actorLabel\n        action\n        targetKind\n        targetId\n        caseId\n        reason\n        detail\n      }\n    }\n  }\n"): (typeof documents)["\n  query ModerationAuditLog($first: Int!, $after: String) {\n    moderationAuditLog(first: $first, after: $after) {\n      hasNextPage\n      endCursor\n      nodes {\n        id\n        occurredAt\n        actorId\n        actorLabel\n        action\n        targetKind\n        targetId\n        caseId\n        reason\n        detail\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OperatorServices {\n    operatorServices {\n      id\n      name\n      version\n      startedAt\n      endpoints\n      circuits {\n        name\n        state\n      }\n      queues {\n        name\n        depth\n      }\n    }\n  }\n"): (typeof documents)["\n  query OperatorServices {\n    operatorServices {\n      id\n      name\n      version\n      startedAt\n      endpoints\n      circuits {\n        name\n        state\n      }\n      queues {\n        name\n        depth\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OperatorEvents($filter: OperatorEventFilter) {\n    operatorEvents(filter: $filter) {\n      id\n      type\n      version\n      occurredAt\n      actorId\n      data\n    }\n  }\n"): (typeof documents)["\n  subscription OperatorEvents($filter: OperatorEventFilter) {\n    operatorEvents(filter: $filter) {\n      id\n      type\n      version\n      occurredAt\n      actorId\n      data\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyPlan {\n    myPlan {\n      plan\n      monthlyTokenAllowance\n      balance\n      renewsAt\n      quotas {\n        kind\n        used\n        limit\n        periodEnd\n      }\n    }\n  }\n"): (typeof documents)["\n  query MyPlan {\n    myPlan {\n      plan\n      monthlyTokenAllowance\n      balance\n      renewsAt\n      quotas {\n        kind\n        used\n        limit\n        periodEnd\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AchievementFields on Achievement {\n    key\n    threshold\n    progress\n    earned\n    earnedAt\n  }\n"): (typeof documents)["\n  fragment AchievementFields on Achievement {\n    key\n    threshold\n    progress\n    earned\n    earnedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyAchievements {\n    myAchievements {\n      ...AchievementFields\n    }\n  }\n"): (typeof documents)["\n  query MyAchievements {\n    myAchievements {\n      ...AchievementFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Profile {\n    dashboardStats {\n      imagesGenerated\n      chatMessages\n      charactersCreated\n      storiesStarted\n      totalLikes\n      publicImages\n    }\n    myQuotas {\n      kind\n      used\n      limit\n    }\n    # order: NEWEST gives these five their own cache entry, apart from the gallery's paged list.\n    myImages(first: 5, order: NEWEST) {\n      nodes {\n        ...ImageFields\n      }\n    }\n    conversations(first: 5) {\n      nodes {\n        id\n        title\n        characterName\n        updatedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query Profile {\n    dashboardStats {\n      imagesGenerated\n      chatMessages\n      charactersCreated\n      storiesStarted\n      totalLikes\n      publicImages\n    }\n    myQuotas {\n      kind\n      used\n      limit\n    }\n    # order: NEWEST gives these five their own cache entry, apart from the gallery's paged list.\n    myImages(first: 5, order: NEWEST) {\n      nodes {\n        ...ImageFields\n      }\n    }\n    conversations(first: 5) {\n      nodes {\n        id\n        title\n        characterName\n        updatedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription AchievementEarned {\n    achievementEarned {\n      ...AchievementFields\n    }\n  }\n"): (typeof documents)["\n  subscription AchievementEarned {\n    achievementEarned {\n      ...AchievementFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...CurrentUser\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...CurrentUser\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment StoryFields on Story {\n    id\n    title\n    premise\n    genre\n    tone\n    language\n    characterIds\n    characterNames\n    currentPassageId\n    passageCount\n    createdAt\n    updatedAt\n    lastPlayedAt\n  }\n"): (typeof documents)["\n  fragment StoryFields on Story {\n    id\n    title\n    premise\n    genre\n    tone\n    language\n    characterIds\n    characterNames\n    currentPassageId\n    passageCount\n    createdAt\n    updatedAt\n    lastPlayedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment StoryPassageFields on StoryPassage {\n    id\n    storyId\n    parentId\n    depth\n    actionKind\n    action\n    content\n    choices\n    status\n    model\n    isDemo\n    errorCode\n    savePoint\n    moderationState\n    createdAt\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment StoryPassageFields on StoryPassage {\n    id\n    storyId\n    parentId\n    depth\n    actionKind\n    action\n    content\n    choices\n    status\n    model\n    isDemo\n    errorCode\n    savePoint\n    moderationState\n    createdAt\n    updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment StoryMapNodeFields on StoryMapNode {\n    id\n    parentId\n    depth\n    actionKind\n    action\n    excerpt\n    status\n    savePoint\n    createdAt\n  }\n"): (typeof documents)["\n  fragment StoryMapNodeFields on StoryMapNode {\n    id\n    parentId\n    depth\n    actionKind\n    action\n    excerpt\n    status\n    savePoint\n    createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Stories {\n    stories(first: 100) {\n      nodes {\n        ...StoryFields\n      }\n      totalCount\n    }\n  }\n"): (typeof documents)["\n  query Stories {\n    stories(first: 100) {\n      nodes {\n        ...StoryFields\n      }\n      totalCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StoryById($id: ID!) {\n    story(id: $id) {\n      ...StoryFields\n    }\n  }\n"): (typeof documents)["\n  query StoryById($id: ID!) {\n    story(id: $id) {\n      ...StoryFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StoryPath($storyId: ID!, $passageId: ID) {\n    storyPath(storyId: $storyId, passageId: $passageId) {\n      ...StoryPassageFields\n    }\n  }\n"): (typeof documents)["\n  query StoryPath($storyId: ID!, $passageId: ID) {\n    storyPath(storyId: $storyId, passageId: $passageId) {\n      ...StoryPassageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StoryMap($storyId: ID!) {\n    storyMap(storyId: $storyId) {\n      ...StoryMapNodeFields\n    }\n  }\n"): (typeof documents)["\n  query StoryMap($storyId: ID!) {\n    storyMap(storyId: $storyId) {\n      ...StoryMapNodeFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StoryExport($storyId: ID!, $passageId: ID) {\n    storyExport(storyId: $storyId, passageId: $passageId) {\n      fileName\n      markdown\n    }\n  }\n"): (typeof documents)["\n  query StoryExport($storyId: ID!, $passageId: ID) {\n    storyExport(storyId: $storyId, passageId: $passageId) {\n      fileName\n      markdown\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription StoryUpdates($storyId: ID!) {\n    storyUpdates(storyId: $storyId) {\n      type\n      storyId\n      typing\n      passageId\n      offset\n      text\n      passage {\n        ...StoryPassageFields\n      }\n      story {\n        ...StoryFields\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription StoryUpdates($storyId: ID!) {\n    storyUpdates(storyId: $storyId) {\n      type\n      storyId\n      typing\n      passageId\n      offset\n      text\n      passage {\n        ...StoryPassageFields\n      }\n      story {\n        ...StoryFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartStory($input: StartStoryInput!) {\n    startStory(input: $input) {\n      story {\n        ...StoryFields\n      }\n      passage {\n        ...StoryPassageFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation StartStory($input: StartStoryInput!) {\n    startStory(input: $input) {\n      story {\n        ...StoryFields\n      }\n      passage {\n        ...StoryPassageFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChooseStoryOption($storyId: ID!, $passageId: ID!, $choiceIndex: Int!) {\n    chooseStoryOption(storyId: $storyId, passageId: $passageId, choiceIndex: $choiceIndex) {\n      ...StoryPassageFields\n    }\n  }\n"): (typeof documents)["\n  mutation ChooseStoryOption($storyId: ID!, $passageId: ID!, $choiceIndex: Int!) {\n    chooseStoryOption(storyId: $storyId, passageId: $passageId, choiceIndex: $choiceIndex) {\n      ...StoryPassageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TakeStoryAction($storyId: ID!, $passageId: ID!, $action: String!) {\n    takeStoryAction(storyId: $storyId, passageId: $passageId, action: $action) {\n      ...StoryPassageFields\n    }\n  }\n"): (typeof documents)["\n  mutation TakeStoryAction($storyId: ID!, $passageId: ID!, $action: String!) {\n    takeStoryAction(storyId: $storyId, passageId: $passageId, action: $action) {\n      ...StoryPassageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetellPassage($storyId: ID!, $passageId: ID!) {\n    retellPassage(storyId: $storyId, passageId: $passageId) {\n      ...StoryPassageFields\n    }\n  }\n"): (typeof documents)["\n  mutation RetellPassage($storyId: ID!, $passageId: ID!) {\n    retellPassage(storyId: $storyId, passageId: $passageId) {\n      ...StoryPassageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GoToPassage($storyId: ID!, $passageId: ID!) {\n    goToPassage(storyId: $storyId, passageId: $passageId) {\n      ...StoryFields\n    }\n  }\n"): (typeof documents)["\n  mutation GoToPassage($storyId: ID!, $passageId: ID!) {\n    goToPassage(storyId: $storyId, passageId: $passageId) {\n      ...StoryFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetSavePoint($storyId: ID!, $passageId: ID!, $label: String!) {\n    setSavePoint(storyId: $storyId, passageId: $passageId, label: $label) {\n      ...StoryPassageFields\n    }\n  }\n"): (typeof documents)["\n  mutation SetSavePoint($storyId: ID!, $passageId: ID!, $label: String!) {\n    setSavePoint(storyId: $storyId, passageId: $passageId, label: $label) {\n      ...StoryPassageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameStory($id: ID!, $title: String!) {\n    renameStory(id: $id, title: $title) {\n      ...StoryFields\n    }\n  }\n"): (typeof documents)["\n  mutation RenameStory($id: ID!, $title: String!) {\n    renameStory(id: $id, title: $title) {\n      ...StoryFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteStory($id: ID!) {\n    deleteStory(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteStory($id: ID!) {\n    deleteStory(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StopStory($storyId: ID!) {\n    stopStory(storyId: $storyId)\n  }\n"): (typeof documents)["\n  mutation StopStory($storyId: ID!) {\n    stopStory(storyId: $storyId)\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;