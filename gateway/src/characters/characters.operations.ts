import { AppError, CharacterInput, CharacterPatch } from '@app/schema';
import { z } from 'zod';
import { type Caller, type Services, member } from '../operations/caller';
import { RelayWindow, foundId, pageSize, parseInput } from '../operations/input';

const CHARACTER_NOT_FOUND = 'Character not found';

/** Discover's page: a Relay window, or REST's `limit` (its `first`, under the name REST clients use). */
const PublicCharactersWindow = RelayWindow.extend({ limit: pageSize('limit').optional() });
const CardFormat = z.enum(['png', 'json_v2', 'json_v3'], { error: 'format must be png, json_v2 or json_v3' });

export const listCharacters = async (services: Services, caller: Caller, window: RelayWindow) =>
  services.chat.listCharacters(member(caller).id, parseInput(RelayWindow, { ...window }), caller.meta);

/** The compatible list: the member's newest characters, as one array. */
export const listRecentCharacters = async (services: Services, caller: Caller) =>
  services.chat.listRecentCharacters(member(caller).id, caller.meta);

export async function listPublicCharacters(services: Services, caller: Caller, window: z.input<typeof PublicCharactersWindow>) {
  const user = member(caller);
  const { limit, ...relay } = parseInput(PublicCharactersWindow, { ...window });
  const page = limit === undefined ? relay : { ...relay, first: limit };
  return services.chat.listPublicCharacters(user.id, page, services.access.ratingsFor(user), caller.meta);
}

export async function getCharacter(services: Services, caller: Caller, id: string) {
  const user = member(caller);
  return services.chat.getCharacter(user.id, foundId(id, CHARACTER_NOT_FOUND), services.access.ratingsFor(user), caller.meta);
}

export const createCharacter = async (services: Services, caller: Caller, input: unknown) =>
  services.chat.createCharacter(member(caller).id, parseInput(CharacterInput, input), caller.meta);

export async function updateCharacter(services: Services, caller: Caller, id: string, patch: unknown) {
  const user = member(caller);
  const characterId = foundId(id, CHARACTER_NOT_FOUND);
  return services.chat.updateCharacter(user.id, characterId, parseInput(CharacterPatch, patch), caller.meta);
}

export async function deleteCharacter(services: Services, caller: Caller, id: string): Promise<string> {
  await services.chat.deleteCharacter(member(caller).id, foundId(id, CHARACTER_NOT_FOUND), caller.meta);
  return id;
}

/** A Character Card V1/V2/V3 file (JSON or PNG), read only once the caller is known to be a member; chat's card parser validates it. */
export async function importCharacterCard(services: Services, caller: Caller, readFile: () => Promise<Buffer>) {
  const user = member(caller);
  return services.chat.importCharacterCard(user.id, await readFile(), caller.meta);
}

export async function exportCharacterCard(services: Services, caller: Caller, id: string, format: unknown) {
  const user = member(caller);
  const characterId = foundId(id, CHARACTER_NOT_FOUND);
  const { format: cardFormat } = parseInput(z.object({ format: CardFormat }), { format });
  return services.chat.exportCharacterCard(user.id, characterId, cardFormat, services.access.ratingsFor(user), caller.meta);
}

export async function characterAvatar(services: Services, caller: Caller, id: string) {
  const user = member(caller);
  const characterId = foundId(id, CHARACTER_NOT_FOUND);
  const avatar = await services.chat.characterAvatar(user.id, characterId, services.access.ratingsFor(user), caller.meta);
  if (!avatar) throw new AppError('NOT_FOUND', 'This character has no avatar');
  return avatar;
}
