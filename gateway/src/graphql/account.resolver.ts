import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { type GatewayContext } from './context';
import { LoginInput, RegisterInput, UserType } from './types';

@Resolver()
export class AccountResolver {
  @Query(() => UserType, { nullable: true, description: 'The signed-in member, or null when signed out.' })
  me(@Ctx() context: GatewayContext): UserType | null {
    return context.user;
  }

  @Mutation(() => UserType, { description: 'Creates the account, starts a session (cookie) and returns the member.' })
  async register(@Arg('input', () => RegisterInput) input: RegisterInput, @Ctx() context: GatewayContext): Promise<UserType> {
    const result = await context.identity.register({ ...input }, context.clientIp, context.meta);
    context.session.start(result.session.token, new Date(result.session.expiresAt));
    return result.user;
  }

  @Mutation(() => UserType, { description: 'Signs in with e-mail and password and starts a session (cookie).' })
  async login(@Arg('input', () => LoginInput) input: LoginInput, @Ctx() context: GatewayContext): Promise<UserType> {
    const result = await context.identity.login({ ...input }, context.clientIp, context.meta);
    context.session.start(result.session.token, new Date(result.session.expiresAt));
    return result.user;
  }

  @Mutation(() => Boolean, { description: 'Ends the current session.' })
  async logout(@Ctx() context: GatewayContext): Promise<boolean> {
    if (context.session.token) await context.identity.logout(context.session.token, context.meta);
    context.session.end();
    return true;
  }
}
