import { AppError, type Character, type Conversation, type GenerationJob, type Image, type Message } from '@app/schema';
import { getCharacter } from '../characters/characters.operations';
import { getConversation, getMessage } from '../conversations/conversations.operations';
import { getGeneration, getImage } from '../images/images.operations';
import { type Caller, type Services, member } from '../operations/caller';
import { isContractId } from '../operations/input';

export type FoundNode =
  | { type: 'Conversation'; item: Conversation }
  | { type: 'Message'; item: Message }
  | { type: 'Character'; item: Character }
  | { type: 'Image'; item: Image }
  | { type: 'GenerationJob'; item: GenerationJob };

const isNotFound = (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND';

/**
 * The item with this id, if the caller may see it, else null (an id that cannot exist included). Ids are UUIDs,
 * unique across types, so at most one of the reads, each checking ownership and visibility, finds it.
 */
export async function findNode(services: Services, caller: Caller, id: string): Promise<FoundNode | null> {
  member(caller);
  if (!isContractId(id)) return null;
  const lookups: Promise<FoundNode>[] = [
    getConversation(services, caller, id).then((item) => ({ type: 'Conversation' as const, item })),
    getMessage(services, caller, id).then((item) => ({ type: 'Message' as const, item })),
    getCharacter(services, caller, id).then((item) => ({ type: 'Character' as const, item })),
    getImage(services, caller, id).then((item) => ({ type: 'Image' as const, item })),
    getGeneration(services, caller, id).then((item) => ({ type: 'GenerationJob' as const, item })),
  ];
  try {
    return await Promise.any(lookups);
  } catch (error) {
    // Every place answered: not found anywhere is null; an outage somewhere is not hidden as one.
    const failures = error instanceof AggregateError ? (error.errors as unknown[]) : [error];
    const failure = failures.find((reason) => !isNotFound(reason));
    if (failure !== undefined) throw failure;
    return null;
  }
}
