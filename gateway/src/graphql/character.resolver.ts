import { SUGGESTED_TRAITS } from '@app/schema';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { patchFrom, toCharacterType } from './chat.mappers';
import { CardFormat, CharacterCardFileType, CharacterInputType, CharacterPatchInputType, CharacterType } from './chat.types';
import { type GatewayContext, requireUser, viewerRatings } from './context';

@Resolver()
export class CharacterResolver {
  @Query(() => [CharacterType], { description: 'My characters, newest first.' })
  async characters(@Ctx() context: GatewayContext): Promise<CharacterType[]> {
    const user = requireUser(context);
    return (await context.chat.listCharacters(user.id, context.meta)).map((c) => toCharacterType(c, user.id));
  }

  @Query(() => [CharacterType], { description: 'Public characters of every member, newest first (8 by default).' })
  async publicCharacters(
    @Ctx() context: GatewayContext,
    @Arg('limit', () => Int, { defaultValue: 8 }) limit: number,
  ): Promise<CharacterType[]> {
    const user = requireUser(context);
    return (await context.chat.listPublicCharacters(user.id, Math.min(Math.max(limit, 1), 100), viewerRatings(context), context.meta)).map(
      (c) => toCharacterType(c, user.id),
    );
  }

  @Query(() => CharacterType, { description: 'A character I own or a public one.' })
  async character(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<CharacterType> {
    const user = requireUser(context);
    return toCharacterType(await context.chat.getCharacter(user.id, id, viewerRatings(context), context.meta), user.id);
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
    const user = requireUser(context);
    return toCharacterType(await context.chat.createCharacter(user.id, patchFrom(input, ['description']), context.meta), user.id);
  }

  @Mutation(() => CharacterType, { description: 'Owner only.' })
  async updateCharacter(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CharacterPatchInputType) input: CharacterPatchInputType,
    @Ctx() context: GatewayContext,
  ): Promise<CharacterType> {
    const user = requireUser(context);
    return toCharacterType(await context.chat.updateCharacter(user.id, id, patchFrom(input, ['description']), context.meta), user.id);
  }

  @Mutation(() => Boolean, { description: 'Owner only.' })
  async deleteCharacter(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<boolean> {
    return (await context.chat.deleteCharacter(requireUser(context).id, id, context.meta)).ok;
  }

  @Mutation(() => CharacterType, {
    description: 'Imports a Character Card V1/V2/V3 (JSON or PNG, base64). Large files: POST /api/characters/import.',
  })
  async importCharacterCard(@Arg('fileBase64', () => String) fileBase64: string, @Ctx() context: GatewayContext): Promise<CharacterType> {
    const user = requireUser(context);
    return toCharacterType(await context.chat.importCharacterCard(user.id, Buffer.from(fileBase64, 'base64'), context.meta), user.id);
  }

  @Query(() => CharacterCardFileType, { description: 'Exports a character I own or a public one as a card file.' })
  exportCharacterCard(
    @Arg('id', () => ID) id: string,
    @Arg('format', () => CardFormat, { defaultValue: CardFormat.PNG }) format: CardFormat,
    @Ctx() context: GatewayContext,
  ): Promise<CharacterCardFileType> {
    return context.chat.exportCharacterCard(requireUser(context).id, id, format, viewerRatings(context), context.meta);
  }
}
