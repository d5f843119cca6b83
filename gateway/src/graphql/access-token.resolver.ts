import type { TokenScope } from '@app/schema';
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { createAccessToken, listAccessTokens, revokeAccessToken } from '../access-tokens/access-tokens.operations';
import { type GatewayContext, callerOf } from './context';

export enum TokenScopeType {
  READ = 'read',
  CHAT = 'chat',
  GENERATE = 'generate',
}
registerEnumType(TokenScopeType, {
  name: 'TokenScope',
  description: 'What a personal access token may do.',
  valuesConfig: {
    READ: { description: 'Every query and subscription the member may run.' },
    CHAT: { description: 'Conversations, messages and characters.' },
    GENERATE: { description: 'Image generation, visibility, likes and deletion.' },
  },
});
/** Typed against the contract, so a scope added there fails to compile here until GraphQL has it too. */
const SCOPE_VALUES: Record<TokenScope, TokenScopeType> = {
  read: TokenScopeType.READ,
  chat: TokenScopeType.CHAT,
  generate: TokenScopeType.GENERATE,
};

@ObjectType('AccessToken', { description: 'A personal access token, as its owner sees it after creation (never the secret).' })
export class AccessTokenType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => [TokenScopeType]) scopes!: TokenScopeType[];
  @Field(() => String, { description: 'cpat_ and the first 4 characters of the secret, to tell tokens apart.' }) prefix!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { nullable: true, description: 'Within a minute.' }) lastUsedAt!: string | null;
  @Field(() => String, { nullable: true, description: 'Null: never expires.' }) expiresAt!: string | null;
}

@ObjectType('CreatedAccessToken')
export class CreatedAccessTokenType {
  @Field(() => AccessTokenType) token!: AccessTokenType;
  @Field(() => String, { description: 'The secret, shown this once: send it as Authorization: Bearer <secret>.' }) secret!: string;
}

@InputType('AccessTokenInput')
export class AccessTokenInputType {
  @Field(() => String, { description: 'What the token is for, 1-60 characters.' }) name!: string;
  @Field(() => [TokenScopeType], { description: 'At least one.' }) scopes!: TokenScopeType[];
  @Field(() => Int, { nullable: true, description: 'Days until it stops working, 1-365; null never expires.' }) expiresInDays?:
    | number
    | null;
}

const asType = (token: { scopes: TokenScope[] }) => ({ scopes: token.scopes.map((scope) => SCOPE_VALUES[scope]) });

@Resolver()
export class AccessTokenResolver {
  @Query(() => [AccessTokenType], { description: "The signed-in member's usable access tokens, newest first." })
  async accessTokens(@Ctx() context: GatewayContext): Promise<AccessTokenType[]> {
    return (await listAccessTokens(context, callerOf(context))).map((token) => ({ ...token, ...asType(token) }));
  }

  @Mutation(() => CreatedAccessTokenType, {
    description: 'Creates a personal access token (at most 20 usable at once). Not available to access tokens themselves.',
  })
  async createAccessToken(@Arg('input', () => AccessTokenInputType) input: AccessTokenInputType, @Ctx() context: GatewayContext) {
    const created = await createAccessToken(context, callerOf(context), { ...input });
    return { secret: created.secret, token: { ...created.token, ...asType(created.token) } };
  }

  @Mutation(() => ID, { description: 'Revokes one of my access tokens at once, on every gateway; returns its id.' })
  revokeAccessToken(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<string> {
    return revokeAccessToken(context, callerOf(context), id);
  }
}
