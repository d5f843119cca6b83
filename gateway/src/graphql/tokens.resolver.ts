import { INTEREST_KINDS, type InterestKind } from '@app/schema';
import { Arg, Ctx, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  dashboardStats,
  grantTokens,
  myAchievements,
  myPlan,
  myQuotas,
  recordInterest,
  watchAchievements,
  watchTokenBalance,
} from '../account/account.operations';
import { contractEnum } from './contract-enum';
import { type GatewayContext, callerOf } from './context';
import { AchievementType, DashboardStatsType, PlanStatusType, type QuotaKindType, QuotaUsageType, TokenBalanceChangeType } from './types';

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

  @Query(() => [AchievementType], { description: "All six achievements with the signed-in member's progress, in SPEC order." })
  myAchievements(@Ctx() context: GatewayContext): Promise<AchievementType[]> {
    return myAchievements(context, callerOf(context));
  }

  @Query(() => PlanStatusType, { description: "The signed-in member's plan: allowance, balance, renewal and this month's quotas." })
  async myPlan(@Ctx() context: GatewayContext): Promise<PlanStatusType> {
    const plan = await myPlan(context, callerOf(context));
    return { ...plan, quotas: plan.quotas.map((quota) => ({ ...quota, kind: quota.kind as QuotaKindType })) };
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

  @Subscription(() => AchievementType, {
    description: 'Pushes each achievement the signed-in member earns, as it is earned.',
    subscribe: ({ context }) => {
      const ctx = context as GatewayContext;
      return watchAchievements(ctx, callerOf(ctx));
    },
  })
  achievementEarned(@Root() achievement: AchievementType): AchievementType {
    return achievement;
  }
}
