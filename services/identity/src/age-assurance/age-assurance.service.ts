import { AppError, type User, identityEvents } from '@app/schema';
import { toUser } from '../accounts/accounts.repository';
import type { IdentityStore } from '../identity.store';
import { type AgeAssurance, acceptAgeCheck } from './age-assurance';

/** Records what an age-assurance adapter found about a member, with an audit entry and an event. */
export class AgeAssuranceService {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: () => Date,
  ) {}

  /** `actorLabel` names who recorded it in the audit log (the command line, or a provider's callback). */
  async record(email: string, adapter: AgeAssurance, evidence: unknown, actorLabel: string, reason: string): Promise<User> {
    const now = this.clock();
    const check = acceptAgeCheck(adapter, await adapter.check(evidence, now), now);
    return this.store.transaction(async ({ accounts, moderation }, tx) => {
      const member = await accounts.findUserByEmail(email);
      if (!member) throw new AppError('NOT_FOUND', 'No member has this e-mail address.');
      await accounts.setAgeAssurance(member.id, check);
      const entry = await moderation.appendAudit({
        at: now,
        actorId: null,
        actorLabel,
        action: 'record_age_check',
        targetKind: 'member',
        targetId: member.id,
        caseId: null,
        reason,
        detail: `${check.level} by ${check.method}`,
      });
      await tx.emit(identityEvents.ageAssured, { userId: member.id, level: check.level, method: check.method, auditId: entry.id }, null);
      return toUser({
        ...member,
        age_assurance_level: check.level,
        age_assurance_method: check.method,
        age_checked_at: check.checkedAt,
      });
    });
  }
}
