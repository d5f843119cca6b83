import { AccessTokenInput } from '@app/schema';
import { type Caller, type Services, member } from '../operations/caller';
import { foundId, parseInput } from '../operations/input';

export const listAccessTokens = async (services: Services, caller: Caller) =>
  services.identity.listAccessTokens(member(caller).id, caller.meta);

/** The secret is in this answer only. Access tokens cannot create tokens (their scopes never allow it). */
export const createAccessToken = async (services: Services, caller: Caller, input: unknown) =>
  services.identity.createAccessToken(member(caller).id, parseInput(AccessTokenInput, input), caller.meta);

/** Revokes at once, on every gateway; answers the revoked token's id. */
export async function revokeAccessToken(services: Services, caller: Caller, id: string) {
  const user = member(caller);
  return services.identity.revokeAccessToken(user.id, foundId(id, 'Access token not found'), caller.meta);
}
