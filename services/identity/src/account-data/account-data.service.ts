import { randomUUID } from 'node:crypto';
import { type Bus, type Subscription, UnitOfWork, logger } from '@app/kit';
import {
  type AccountDeleted,
  AppError,
  DeleteAccountInput,
  type ExportPage,
  type IdentityExportPart,
  SESSION_ENDED_SUBJECT,
  type SessionEnded,
  accountDataEvents,
  accountDataRpc,
  validationError,
} from '@app/schema';
import type { PasswordHasher } from '../accounts/password-hasher';
import { Throttle, type ThrottleRule } from '../accounts/throttle';
import type { IdentityStore } from '../identity.store';
import { AccountDataRepository } from './account-data.repository';

/** The same budget as sign-in's per account: a stolen session cannot guess the password faster than the sign-in form. */
const PASSWORD_CHECKS: ThrottleRule = { limit: 5, windowMs: 15 * 60_000 };
const WRONG_PASSWORD = 'The password is not correct.';

/**
 * Export and deletion of a member's account (decision 037): identity's rows go in one transaction that also emits
 * `evt.identity.account.deleted`, from which chat and media erase theirs; the token ledger stays, anonymised.
 */
export class AccountDataService {
  private readonly store: UnitOfWork<AccountDataRepository>;
  private readonly throttle: Throttle;

  constructor(
    identityStore: IdentityStore,
    private readonly hasher: PasswordHasher,
    private readonly clock: () => Date,
    private readonly announceSessionsEnded: (tokenHashes: string[]) => Promise<void>,
  ) {
    this.store = new UnitOfWork(identityStore.db, (session) => new AccountDataRepository(session));
    this.throttle = new Throttle(identityStore, clock);
  }

  /** A page of one part of the member's export (the gateway asks part by part, page by page). */
  async export(userId: string, part: IdentityExportPart, after: string[] | null, limit: number): Promise<ExportPage> {
    const page = await this.store.run((data) => data.exportPage(part, userId, after, limit));
    if (part === 'account' && page.rows.length === 0) throw new AppError('NOT_FOUND', 'Member not found');
    return page;
  }

  /** Checks the password, then deletes the account; its sessions and access tokens stop working on every gateway at once. */
  async delete(userId: string, rawInput: unknown, deadlineAt?: number): Promise<AccountDeleted> {
    const parsed = DeleteAccountInput.safeParse(rawInput);
    if (!parsed.success) throw validationError(parsed.error);
    const found = await this.store.run((data) => data.findAccount(userId));
    if (!found) throw new AppError('NOT_FOUND', 'Member not found');
    const throttleKey = `login-account:${found.email}`;
    await this.throttle.assertAllowed(throttleKey, PASSWORD_CHECKS, 'Too many wrong passwords. Please wait a few minutes and try again.');
    if (!(await this.hasher.verify(parsed.data.password, found.password_hash, deadlineAt))) {
      await this.throttle.hit(throttleKey, PASSWORD_CHECKS);
      throw new AppError('FORBIDDEN', WRONG_PASSWORD);
    }
    const deleted: AccountDeleted = { userId, deletedAt: this.clock().toISOString() };
    const ended = await this.store.transaction(async (data, tx) => {
      // The row lock waits for any debit or grant in flight, so none lands after the ledger is anonymised.
      const account = await data.findAccount(userId, true);
      if (!account) throw new AppError('NOT_FOUND', 'Member not found');
      const tokenHashes = [...(await data.deleteSessions(userId)), ...(await data.deleteAccessTokens(userId))];
      const anonymousId = randomUUID();
      await data.anonymiseLedger(userId, anonymousId);
      await data.anonymiseCases(userId, anonymousId);
      for (const table of ['quota_uses', 'user_stats', 'member_notices', ...(await data.otherMemberTables())]) {
        await data.deleteMemberRows(table, userId);
      }
      await data.deleteThrottles(account.email);
      await data.deleteRelayedEvents(userId);
      await data.deleteUser(userId);
      await tx.emit(accountDataEvents.accountDeleted, deleted, null);
      return tokenHashes;
    });
    await this.announceSessionsEnded(ended);
    logger.info({ sessionsEnded: ended.length }, 'account deleted');
    return deleted;
  }
}

/** Every gateway drops the ended sessions and access tokens from its cache and closes their sockets (as a sign-out does). */
const announceSessionsEnded = (bus: Bus) => async (tokenHashes: string[]) => {
  for (const tokenHash of tokenHashes) {
    await bus
      .publishLive(SESSION_ENDED_SUBJECT, { tokenHash } satisfies SessionEnded)
      .catch((error: unknown) => logger.warn({ err: error }, 'ended session not announced to the gateways'));
  }
};

/** Identity's account-data endpoints: the member's export, and deleting the account. */
export function startIdentityAccountData(
  bus: Bus,
  store: IdentityStore,
  hasher: PasswordHasher,
  clock: () => Date = () => new Date(),
): Promise<Subscription[]> {
  const accountData = new AccountDataService(store, hasher, clock, announceSessionsEnded(bus));
  return Promise.all([
    bus.serve(accountDataRpc.exportIdentity, ({ userId, part, after, limit }) => accountData.export(userId, part, after, limit)),
    bus.serve(accountDataRpc.deleteAccount, ({ userId, input }, { deadlineAt }) => accountData.delete(userId, input, deadlineAt)),
  ]);
}
