import { MemberPersonaInput, SamplerSettings } from '@app/schema';
import { z } from 'zod';
import { type Caller, type Services, member } from '../operations/caller';
import { foundId, parseInput } from '../operations/input';

/** Left out: unchanged; null: cleared. */
const ConversationSettings = z.object({
  sampling: SamplerSettings.nullish(),
  model: z.string().max(200, 'A model name can be at most 200 characters').nullish(),
});

export async function chatModels(services: Services, caller: Caller) {
  member(caller);
  return services.chat.listModels(caller.meta);
}

/** A conversation's own sampler settings and model. */
export async function updateConversationSettings(services: Services, caller: Caller, id: string, input: unknown) {
  const user = member(caller);
  const conversationId = foundId(id, 'Conversation not found');
  const settings = parseInput(ConversationSettings, input);
  return services.chat.updateConversationSettings(user.id, conversationId, settings, caller.meta);
}

export const myPersona = async (services: Services, caller: Caller) => services.chat.getPersona(member(caller).id, caller.meta);

export async function updatePersona(services: Services, caller: Caller, input: unknown) {
  const user = member(caller);
  return services.chat.updatePersona(user.id, parseInput(MemberPersonaInput, input), caller.meta);
}
