import { INTEREST_KINDS, type InterestKind } from '@app/schema';
import { Arg, Ctx, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { dashboardStats, grantTokens, myQuotas, recordInterest, watchTokenBalance } from '../account/account.operations';
import { contractEnum } from './contract-enum';
import { type GatewayContext, callerOf } from './context';
import { DashboardStatsType, type QuotaKindType, QuotaUsageType, TokenBalanceChangeType } from './types';

const InterestKindType = contractEnum('InterestKind', INTEREST_KINDS, {
  valueDescriptions: { feature: 'A feature announced as coming soon.', vip_subscribe: 'A VIP group on the landing page.' },
});

@Resolver()
export class TokensResolver {
  @Query(() => DashboardStatsType, { description: "The signed-in member's activity counters." })
  dashboardStats(@Ctx() context: GatewayContext): Promise<DashboardStatsType> {
    return dashboardStats(context, callerOf(context));
  }

  @Query(() => [QuotaUsageType], { description: "The signed-in member's free-plan allowances this month." })
  async myQuotas(@Ctx() context: GatewayContext): Promise<QuotaUsageType[]> {
    return (await myQuotas(context, callerOf(context))).map((quota) => ({ ...quota, kind: quota.kind as QuotaKindType }));
  }

  @Mutation(() => TokenBalanceChangeType, {
    description: 'Operator only (Authorization: Bearer OPERATOR_TOKEN): grants tokens to a member.',
  })
  grantTokens(
    @Arg('email', () => String) email: string,
    @Arg('amount', () => Int) amount: number,
    @Arg('reason', () => String) reason: string,
    @Ctx() context: GatewayContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: 'Repeating a key grants once.' }) idempotencyKey?: string | null,
  ): Promise<TokenBalanceChangeType> {
    return grantTokens(context, callerOf(context), { email, amount, reason, idempotencyKey });
  }

  @Mutation(() => Boolean, {
    description: "Records interest in a feature or VIP group (landing page); label: e.g. 'vip-basic'.",
  })
  async recordInterest(
    @Arg('kind', () => InterestKindType) kind: InterestKind,
    @Arg('label', () => String) label: string,
    @Ctx() context: GatewayContext,
  ): Promise<boolean> {
    return (await recordInterest(context, callerOf(context), { kind, label })).recorded;
  }

  @Subscription(() => TokenBalanceChangeType, {
    description: "Pushes the signed-in member's new balance whenever it changes.",
    subscribe: ({ context }) => {
      const ctx = context as GatewayContext;
      return watchTokenBalance(ctx, callerOf(ctx));
    },
  })
  tokenBalanceChanged(@Root() change: TokenBalanceChangeType): TokenBalanceChangeType {
    return change;
  }
}
