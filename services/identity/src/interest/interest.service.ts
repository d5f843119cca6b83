import { InterestInput, identityEvents, validationError } from '@app/schema';
import { Throttle, type ThrottleRule } from '../accounts/throttle';
import type { IdentityStore } from '../identity.store';

/** Interest signals per client address per hour; enough for a curious visitor, not for a script. */
const INTEREST_PER_IP: ThrottleRule = { limit: 60, windowMs: 60 * 60 * 1000 };

/** Landing-page interest (features, VIP groups) as domain events operators can watch; no personal data beyond a member id. */
export class InterestService {
  private readonly throttle: Throttle;

  constructor(
    private readonly store: IdentityStore,
    clock: () => Date,
  ) {
    this.throttle = new Throttle(store, clock);
  }

  async record(rawInput: unknown, userId: string | null, clientIp: string): Promise<{ recorded: boolean }> {
    const parsed = InterestInput.safeParse(rawInput);
    if (!parsed.success) throw validationError(parsed.error);
    const key = `interest:${clientIp}`;
    await this.throttle.assertAllowed(key, INTEREST_PER_IP, 'Thanks, we already have your interest. Please try again later.');
    await this.throttle.hit(key, INTEREST_PER_IP);
    await this.store.transaction((_repositories, tx) => tx.emit(identityEvents.interestRecorded, { ...parsed.data, userId }, userId));
    return { recorded: true };
  }
}
