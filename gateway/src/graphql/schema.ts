import 'reflect-metadata';
import { AccessTokenResolver } from './access-token.resolver';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { AccountResolver } from './account.resolver';
import { AccountDataResolver } from './account-data.resolver';
import { CharacterResolver } from './character.resolver';
import { ErrorExtensionsType } from './error-codes';
import { ChatResolver } from './chat.resolver';
import { ChatSettingsResolver } from './chat-settings.resolver';
import { MediaResolver } from './media.resolver';
import { ModerationResolver } from './moderation.resolver';
import { NodeResolver } from './node.resolver';
import { OperatorResolver } from './operator.resolver';
import { PhotosResolver } from './photos.resolver';
import { StoryResolver } from './story.resolver';
import { TokensResolver } from './tokens.resolver';
import { LiveHub } from '../live-hub';

/** The gateway's GraphQL schema; inputs are validated once, by the owning service's zod contract. */
export function buildGatewaySchema(live: LiveHub): GraphQLSchema {
  return buildSchemaSync({
    resolvers: [
      AccessTokenResolver,
      AccountResolver,
      AccountDataResolver,
      TokensResolver,
      ChatResolver,
      ChatSettingsResolver,
      StoryResolver,
      CharacterResolver,
      MediaResolver,
      ModerationResolver,
      OperatorResolver,
      PhotosResolver,
      NodeResolver,
    ],
    // Not returned by any field: documents each error's `extensions` (and the ErrorCode enum) in the SDL.
    orphanedTypes: [ErrorExtensionsType],
    validate: false,
    pubSub: live,
  });
}

/** The SDL checked in as schema/schema.graphql (sorted so diffs stay small). */
export function printGatewaySchema(): string {
  return `${printSchema(lexicographicSortSchema(buildGatewaySchema(new LiveHub())))}\n`;
}
