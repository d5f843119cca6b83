import { randomUUID } from 'node:crypto';
import { type AuthResult, InterestInput, LoginInput, ProfileNamesInput, RatingPreferences, RegisterInput } from '@app/schema';
import { LIVE_TOPICS } from '../live-hub';
import { type Caller, type LiveServices, type Services, member, operator } from '../operations/caller';
import { parseInput } from '../operations/input';

function startSession(caller: Caller, result: AuthResult) {
  caller.session.start(result.session.token, new Date(result.session.expiresAt));
  return result.user;
}

/** Creates the account and starts its session (cookie); answers the new member. */
export async function register(services: Services, caller: Caller, input: unknown) {
  return startSession(caller, await services.identity.register(parseInput(RegisterInput, input), caller.clientIp, caller.meta));
}

export async function login(services: Services, caller: Caller, input: unknown) {
  return startSession(caller, await services.identity.login(parseInput(LoginInput, input), caller.clientIp, caller.meta));
}

/** Ends the caller's session, if any, and clears its cookie. */
export async function logout(services: Services, caller: Caller): Promise<true> {
  if (caller.session.token) await services.identity.logout(caller.session.token, caller.meta);
  caller.session.end();
  return true;
}

/** The signed-in member, or null for a visitor. */
export const me = (caller: Caller) => caller.user;

/** The signed-in member, or UNAUTHENTICATED (the compatible `/api/user`). */
export const currentMember = (caller: Caller) => member(caller);

export const dashboardStats = async (services: Services, caller: Caller) => services.identity.getStats(member(caller).id, caller.meta);

export const myQuotas = async (services: Services, caller: Caller) => services.identity.getQuotas(member(caller).id, caller.meta);

/** The member's own names (trimmed; empty clears one); a field left out stays as it is. */
export const updateProfile = async (services: Services, caller: Caller, input: unknown) =>
  services.identity.updateProfile(member(caller).id, parseInput(ProfileNamesInput, input), caller.meta);

/** All six achievements with the member's progress, in SPEC order. */
export const myAchievements = async (services: Services, caller: Caller) =>
  services.identity.getAchievements(member(caller).id, caller.meta);

/** The Plans screen: plan, monthly allowance, balance, renewal and this month's use of each allowance. */
export const myPlan = async (services: Services, caller: Caller) => services.identity.getPlan(member(caller).id, caller.meta);

export const updateRatingPreferences = async (services: Services, caller: Caller, preferences: unknown) =>
  services.identity.updatePreferences(member(caller).id, parseInput(RatingPreferences, preferences), caller.meta);

/** Landing-page interest, from visitors and members alike. */
export const recordInterest = async (services: Services, caller: Caller, interest: unknown) =>
  services.identity.recordInterest(parseInput(InterestInput, interest), caller.user?.id ?? null, caller.clientIp, caller.meta);

/** Operator only: grants tokens; a repeated idempotency key grants once. */
export async function grantTokens(
  services: Services,
  caller: Caller,
  grant: { email: string; amount: number; reason: string; idempotencyKey?: string | null },
) {
  operator(caller);
  const idempotencyKey = grant.idempotencyKey ?? `grant:${randomUUID()}`;
  return services.identity.grantTokens(grant.email, grant.amount, grant.reason, idempotencyKey, caller.meta);
}

/** The member's new balance whenever it changes. */
export const watchTokenBalance = async (services: LiveServices, caller: Caller) =>
  services.live.listen(LIVE_TOPICS.tokens, member(caller).id);

/** Each achievement the member earns, as it is earned. */
export const watchAchievements = async (services: LiveServices, caller: Caller) =>
  services.live.listen(LIVE_TOPICS.achievements, member(caller).id);
