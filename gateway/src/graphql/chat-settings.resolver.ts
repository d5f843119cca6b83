import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { chatModels, myPersona, updateConversationSettings, updatePersona } from '../conversations/chat-settings.operations';
import { ChatModelsType, ConversationSettingsInputType, MemberPersonaInputType, MemberPersonaType } from './chat-settings.types';
import { ConversationType } from './chat.types';
import { type GatewayContext, callerOf } from './context';

/** What a member tunes about their chats: who they play, and how replies are sampled and by which model. */
@Resolver()
export class ChatSettingsResolver {
  @Query(() => ChatModelsType, { description: 'The models the chat provider lists (a demo or a server that lists none: its one model).' })
  chatModels(@Ctx() context: GatewayContext): Promise<ChatModelsType> {
    return chatModels(context, callerOf(context));
  }

  @Query(() => MemberPersonaType, { description: 'Who I play in chats: {{user}} in characters and prompts.' })
  myPersona(@Ctx() context: GatewayContext): Promise<MemberPersonaType> {
    return myPersona(context, callerOf(context));
  }

  @Mutation(() => MemberPersonaType)
  updatePersona(@Arg('input', () => MemberPersonaInputType) input: MemberPersonaInputType, @Ctx() context: GatewayContext) {
    return updatePersona(context, callerOf(context), input);
  }

  @Mutation(() => ConversationType, { description: "One of my conversations' sampler settings and model." })
  updateConversationSettings(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ConversationSettingsInputType) input: ConversationSettingsInputType,
    @Ctx() context: GatewayContext,
  ): Promise<ConversationType> {
    return updateConversationSettings(context, callerOf(context), id, input);
  }
}
