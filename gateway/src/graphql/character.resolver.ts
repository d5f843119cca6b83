import { SUGGESTED_TRAITS } from '@app/schema';
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import {
  createCharacter,
  deleteCharacter,
  exportCharacterCard,
  getCharacter,
  importCharacterCard,
  listCharacters,
  listPublicCharacters,
  updateCharacter,
} from '../characters/characters.operations';
import { patchFrom, toCharacterType, toConnection } from './chat.mappers';
import {
  CardFormat,
  CharacterCardFileType,
  CharacterConnectionType,
  CharacterInputType,
  CharacterPatchInputType,
  CharacterType,
  PageArgsType,
} from './chat.types';
import { type GatewayContext, callerOf } from './context';

@Resolver()
export class CharacterResolver {
  @Query(() => CharacterConnectionType, { description: 'My characters, newest first (100 when neither first nor last is given).' })
  async characters(@Args(() => PageArgsType) page: PageArgsType, @Ctx() context: GatewayContext): Promise<CharacterConnectionType> {
    return toConnection(await listCharacters(context, callerOf(context), page), (c) => toCharacterType(c, context.user?.id));
  }

  @Query(() => CharacterConnectionType, {
    description: 'Public characters of every member in my ratings, newest first (8 when neither first nor last is given); not counted.',
  })
  async publicCharacters(@Args(() => PageArgsType) page: PageArgsType, @Ctx() context: GatewayContext): Promise<CharacterConnectionType> {
    return toConnection(await listPublicCharacters(context, callerOf(context), page), (c) => toCharacterType(c, context.user?.id));
  }

  @Query(() => CharacterType, { description: 'A character I own or a public one.' })
  async character(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<CharacterType> {
    return toCharacterType(await getCharacter(context, callerOf(context), id), context.user?.id);
  }

  @Query(() => [String], { description: 'Suggested personality traits for the character creator.' })
  suggestedTraits(): string[] {
    return [...SUGGESTED_TRAITS];
  }

  @Mutation(() => CharacterType, { description: 'Creates a private-by-default character (free plan: 2 per month).' })
  async createCharacter(
    @Arg('input', () => CharacterInputType) input: CharacterInputType,
    @Ctx() context: GatewayContext,
  ): Promise<CharacterType> {
    return toCharacterType(await createCharacter(context, callerOf(context), patchFrom(input, ['description'])), context.user?.id);
  }

  @Mutation(() => CharacterType, { description: 'Owner only.' })
  async updateCharacter(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CharacterPatchInputType) input: CharacterPatchInputType,
    @Ctx() context: GatewayContext,
  ): Promise<CharacterType> {
    return toCharacterType(await updateCharacter(context, callerOf(context), id, patchFrom(input, ['description'])), context.user?.id);
  }

  @Mutation(() => ID, { description: "Owner only. Returns the deleted character's id." })
  deleteCharacter(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<string> {
    return deleteCharacter(context, callerOf(context), id);
  }

  @Mutation(() => CharacterType, {
    description: 'Imports a Character Card V1/V2/V3 (JSON or PNG, base64). Large files: POST /api/characters/import.',
  })
  async importCharacterCard(@Arg('fileBase64', () => String) fileBase64: string, @Ctx() context: GatewayContext): Promise<CharacterType> {
    const imported = await importCharacterCard(context, callerOf(context), async () => Buffer.from(fileBase64, 'base64'));
    return toCharacterType(imported, context.user?.id);
  }

  @Query(() => CharacterCardFileType, { description: 'Exports a character I own or a public one as a card file.' })
  exportCharacterCard(
    @Arg('id', () => ID) id: string,
    @Arg('format', () => CardFormat, { defaultValue: CardFormat.PNG }) format: CardFormat,
    @Ctx() context: GatewayContext,
  ): Promise<CharacterCardFileType> {
    return exportCharacterCard(context, callerOf(context), id, format);
  }
}
