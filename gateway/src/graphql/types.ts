import { Field, ID, InputType, Int, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLISODateTime } from 'type-graphql';
import type { AgeAssurance, RatingPreferences, Role } from '@app/schema';
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
