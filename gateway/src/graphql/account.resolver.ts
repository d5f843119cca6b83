import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { login, logout, me, register, updateProfile } from '../account/account.operations';
import { type GatewayContext, callerOf } from './context';
import { LoginInput, RegisterInput, UpdateProfileInput, UserType } from './types';

@Resolver()
export class AccountResolver {
  @Query(() => UserType, { nullable: true, description: 'The signed-in member, or null when signed out.' })
  me(@Ctx() context: GatewayContext): UserType | null {
    return me(callerOf(context));
  }

  @Mutation(() => UserType, { description: 'Creates the account, starts a session (cookie) and returns the member.' })
  register(@Arg('input', () => RegisterInput) input: RegisterInput, @Ctx() context: GatewayContext): Promise<UserType> {
    return register(context, callerOf(context), { ...input });
  }

  @Mutation(() => UserType, { description: 'Signs in with e-mail and password and starts a session (cookie).' })
  login(@Arg('input', () => LoginInput) input: LoginInput, @Ctx() context: GatewayContext): Promise<UserType> {
    return login(context, callerOf(context), { ...input });
  }

  @Mutation(() => UserType, { description: "Changes the signed-in member's first and last name; answers the member as they now are." })
  updateProfile(@Arg('input', () => UpdateProfileInput) input: UpdateProfileInput, @Ctx() context: GatewayContext): Promise<UserType> {
    return updateProfile(context, callerOf(context), { ...input });
  }

  @Mutation(() => Boolean, { description: 'Ends the current session.' })
  logout(@Ctx() context: GatewayContext): Promise<boolean> {
    return logout(context, callerOf(context));
  }
}
