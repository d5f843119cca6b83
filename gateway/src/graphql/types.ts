import { Field, ID, InputType, Int, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLISODateTime } from 'type-graphql';
import {
  ACHIEVEMENT_KEYS,
  type AchievementKey,
  type AgeAssurance,
  PLAN_KINDS,
  type PlanKind,
  type RatingPreferences,
  type Role,
} from '@app/schema';
import { contractEnum } from './contract-enum';
import { AgeAssuranceType, RatingPreferencesType, RoleType } from './moderation.types';

/** What `Query.node` returns: the mapped item with the name of its GraphQL type. */
export type NodeValue = { id: string; __typename: 'Conversation' | 'Message' | 'Character' | 'Image' | 'GenerationJob' };

@InterfaceType('Node', {
  description: 'An item with a global id (a UUID, unique across types): `Query.node(id:)` reads it again by that id alone.',
  resolveType: (value: NodeValue) => value.__typename,
})
export abstract class NodeType {
  @Field(() => ID) id!: string;
}

@ObjectType('User', { description: 'A member of the platform.' })
export class UserType {
  @Field(() => ID) id!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true }) firstName!: string | null;
  @Field(() => String, { nullable: true }) lastName!: string | null;
  @Field(() => String, { nullable: true }) profileImageUrl!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => Int, { description: 'Token balance; 1 token = 1 AI generation.' }) tokens!: number;
  @Field(() => RoleType) role!: Role;
  @Field(() => RatingPreferencesType) ratingPreferences!: RatingPreferences;
  @Field(() => AgeAssuranceType) ageAssurance!: AgeAssurance;
}

@InputType()
export class RegisterInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
  @Field(() => String) confirmPassword!: string;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { description: 'YYYY-MM-DD; members must be 18 or older.' }) dateOfBirth!: string;
  @Field(() => Boolean, { description: 'Accepts the Terms of Service and confirms being 18 or older.' }) acceptTerms!: boolean;
}

@InputType()
export class LoginInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
}

@ObjectType('DashboardStats', { description: 'Activity counters shown on the dashboard.' })
export class DashboardStatsType {
  @Field(() => Int) imagesGenerated!: number;
  @Field(() => Int) chatMessages!: number;
  @Field(() => Int) charactersCreated!: number;
  @Field(() => Int) storiesStarted!: number;
  @Field(() => Int) totalLikes!: number;
  @Field(() => Int) publicImages!: number;
}

export enum QuotaKindType {
  IMAGE = 'image',
  CHAT = 'chat',
  CHARACTER = 'character',
  STORY = 'story',
}
registerEnumType(QuotaKindType, { name: 'QuotaKind', description: 'A free-plan monthly allowance.' });

@ObjectType('QuotaUsage', { description: "This month's use of a free-plan allowance." })
export class QuotaUsageType {
  @Field(() => QuotaKindType) kind!: QuotaKindType;
  @Field(() => Int) used!: number;
  @Field(() => Int) limit!: number;
  @Field(() => GraphQLISODateTime) periodStart!: string;
  @Field(() => GraphQLISODateTime) periodEnd!: string;
}

@ObjectType('TokenBalanceChange', { description: 'A change to a token balance.' })
export class TokenBalanceChangeType {
  @Field(() => Int) balance!: number;
  @Field(() => Int, { description: 'Positive for grants and refunds, negative for debits.' }) delta!: number;
  @Field(() => String) reason!: string;
  @Field(() => GraphQLISODateTime) occurredAt!: string;
}

@InputType({ description: 'Names are trimmed; an empty one is cleared. A field left out stays as it is.' })
export class UpdateProfileInput {
  @Field(() => String, { nullable: true, description: 'At most 100 characters.' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'At most 100 characters.' }) lastName?: string | null;
}

const AchievementKeyType = contractEnum('AchievementKey', ACHIEVEMENT_KEYS, {
  description: 'The six achievements (SPEC §9), each earned once a counter reaches its threshold.',
  valueDescriptions: {
    first_creation: '1 image generated.',
    conversation_starter: '1 chat message sent.',
    character_creator: '1 character created.',
    popular_creator: '100 likes on your images in total.',
    productive_creator: '50 images generated.',
    social_butterfly: '10 public images.',
  },
});

@ObjectType('Achievement', { description: "One achievement and the signed-in member's progress toward it." })
export class AchievementType {
  @Field(() => AchievementKeyType) key!: AchievementKey;
  @Field(() => Int, { description: 'The counter value that earns it.' }) threshold!: number;
  @Field(() => Int, { description: 'The counter now, capped at the threshold.' }) progress!: number;
  @Field(() => Boolean, { description: 'Earned once, kept even if the counter falls later.' }) earned!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) earnedAt!: string | null;
}

const PlanKindType = contractEnum('PlanKind', PLAN_KINDS, { description: "A member's plan; Pro is coming soon." });

@ObjectType('PlanStatus', { description: "The signed-in member's plan this month." })
export class PlanStatusType {
  @Field(() => PlanKindType) plan!: PlanKind;
  @Field(() => Int, { description: 'Tokens the balance is topped up to at the start of each month.' }) monthlyTokenAllowance!: number;
  @Field(() => Int) balance!: number;
  @Field(() => GraphQLISODateTime, { description: 'When the allowance and quotas renew (the next month, UTC).' }) renewsAt!: string;
  @Field(() => [QuotaUsageType]) quotas!: QuotaUsageType[];
}
