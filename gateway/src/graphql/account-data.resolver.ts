import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { accountExportUrl, deleteAccount } from '../account-data/account-data.operations';
import { type GatewayContext, callerOf } from './context';

/** The member's own data: export everything as one archive, delete the account. */
@Resolver()
export class AccountDataResolver {
  @Query(() => String, {
    description: 'Where the signed-in member downloads everything they own as one ZIP (a GET with the session cookie).',
  })
  accountExportUrl(@Ctx() context: GatewayContext): string {
    return accountExportUrl(callerOf(context));
  }

  @Mutation(() => Boolean, {
    description: "Deletes the signed-in member's account and everything they own, after checking the password; signs out.",
  })
  async deleteAccount(@Arg('password', () => String) password: string, @Ctx() context: GatewayContext): Promise<boolean> {
    return deleteAccount(context, callerOf(context), { password });
  }
}
