import { randomUUID } from 'node:crypto';
import { type Bus, InProcessBus, NatsBus, type RunningService, startService } from '@app/kit';
import {
  type AppError,
  type EventEnvelope,
  type ModerationTarget,
  type ReportInput,
  SESSION_ENDED_SUBJECT,
  type TakedownInput,
  identityEvents,
  identityRpc,
} from '@app/schema';
import { createIdentityService, grantRoleOffline } from '@app/identity';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';

jest.setTimeout(60_000);

const HOUR = 60 * 60 * 1000;

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))(
  'moderation in identity on %s',
  (_name, target) => {
    let bus: Bus;
    let service: RunningService;
    let cleanup: () => Promise<void>;
    // A Friday noon: the 7 business days of a takedown run over a weekend.
    const now = new Date('2026-11-20T12:00:00Z');
    const events: EventEnvelope[] = [];
    const endedSessions: string[] = [];

    beforeAll(async () => {
      const created = await target.create();
      cleanup = created.cleanup;
      bus = created.infra.natsUrl ? await NatsBus.connect(created.infra.natsUrl, 'identity-moderation-test') : InProcessBus.open();
      service = await startService(createIdentityService({ clock: () => now, signupsPerIpPerHour: 1000 }), bus, created.infra, {});
      await bus.consumeEvents({ subjects: ['evt.identity.>'], deliver: 'new' }, async (event) => void events.push(event));
      await bus.subscribeLive(SESSION_ENDED_SUBJECT, (message) => void endedSessions.push((message as { tokenHash: string }).tokenHash));
    });
    afterAll(async () => {
      await service.stop();
      await bus.close();
      await cleanup();
    });

    const password = 'correct horse battery';
    async function member() {
      const email = `m${randomUUID().slice(0, 8)}@example.com`;
      const input = { email, password, confirmPassword: password, dateOfBirth: '1990-01-01', acceptTerms: true };
      const { user, session } = await bus.request(identityRpc.register, { input, clientIp: '10.1.0.1' });
      return { ...user, token: session.token };
    }
    async function moderator() {
      const account = await member();
      await grantRoleOffline(service.db, account.email, 'moderator', 'test moderator');
      return account;
    }
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: AppError) => error,
      );
    const image = (ownerId: string, overrides: Partial<ModerationTarget> = {}): ModerationTarget => ({
      kind: 'image',
      id: randomUUID(),
      ownerId,
      title: null,
      text: 'a lighthouse at dusk',
      imageUrl: null,
      isPublic: true,
      rating: 'safe',
      state: 'visible',
      context: null,
      createdAt: now.toISOString(),
      ...overrides,
    });
    const report = (
      reporterId: string,
      target: ModerationTarget,
      reason: ReportInput['reason'] = 'minor',
      details: string | null = 'looks underage',
    ) =>
      bus.request(identityRpc.fileReport, {
        reporterId,
        input: { targetKind: target.kind, targetId: target.id, reason, details },
        target,
      });

    it('a report lands in the queue with its deadline, once per member, and is announced', async () => {
      const owner = await member();
      const reporter = await member();
      const target = image(owner.id);
      const first = await report(reporter.id, target);
      const again = await report(reporter.id, target, 'spam');
      expect(again.caseId).toBe(first.caseId);
      const { cases } = await bus.request(identityRpc.listCases, { status: 'open', first: 100 });
      const filed = cases.find((item) => item.id === first.caseId)!;
      expect(filed).toMatchObject({
        kind: 'report',
        reason: 'minor',
        targetOwnerId: owner.id,
        reporterId: reporter.id,
        details: 'looks underage',
      });
      // Reports of minors are due within 24 hours.
      expect(new Date(filed.deadlineAt).getTime() - now.getTime()).toBe(24 * HOUR);
      expect(filed.snapshot.text).toBe('a lighthouse at dusk');
      await eventually(() =>
        expect(
          events.filter(
            (event) => event.type === identityEvents.reportFiled.type && (event.data as { caseId: string }).caseId === first.caseId,
          ),
        ).toHaveLength(1),
      );
    });

    it('refuses a report of one’s own content, a mismatched target and an unknown reason', async () => {
      const owner = await member();
      const target = image(owner.id);
      expect((await failure(report(owner.id, target)))?.message).toBe("You can't report your own content.");
      const other = await member();
      const mismatched = bus.request(identityRpc.fileReport, {
        reporterId: other.id,
        input: { targetKind: 'image', targetId: randomUUID(), reason: 'spam' },
        target,
      });
      expect((await failure(mismatched))?.code).toBe('VALIDATION_FAILED');
      expect((await failure(report(other.id, target, 'boring' as ReportInput['reason'])))?.code).toBe('VALIDATION_FAILED');
    });

    it('sorts the queue by deadline, soonest first', async () => {
      const owner = await member();
      const reporter = await member();
      const spam = await report(reporter.id, image(owner.id), 'spam', null);
      const minor = await report(reporter.id, image(owner.id), 'minor', null);
      const { cases } = await bus.request(identityRpc.listCases, { status: 'open', first: 100 });
      const order = cases.map((item) => item.id);
      expect(order.indexOf(minor.caseId)).toBeLessThan(order.indexOf(spam.caseId));
      const deadlines = cases.map((item) => item.deadlineAt);
      expect([...deadlines].sort()).toEqual(deadlines);
    });

    it('a takedown request gets a reference, 48 hours to removal and 7 business days to resolution', async () => {
      const owner = await member();
      const target = image(owner.id);
      const receipt = await bus.request(identityRpc.fileTakedown, {
        input: {
          kind: 'intimate_image',
          content: `https://example.com/gallery?image=${target.id}`,
          statement: 'This picture of me was shared without my consent.',
          requester: 'depicted_person',
          name: 'Jane Roe',
          email: 'jane@example.com',
          signature: 'Jane Roe',
          goodFaith: true,
        },
        targets: [target],
        clientIp: '10.9.9.1',
      });
      expect(receipt.reference).toMatch(/^TD-[0-9A-F]{10}$/);
      expect(receipt.removalDeadline).toBe('2026-11-22T12:00:00.000Z');
      // Friday + 7 business days = the Tuesday after next.
      expect(receipt.resolutionDeadline).toBe('2026-12-01T12:00:00.000Z');
      const { cases } = await bus.request(identityRpc.listCases, { status: 'open', first: 100 });
      expect(cases.find((item) => item.reference === receipt.reference)).toMatchObject({
        kind: 'takedown',
        reason: 'intimate_image',
        targetId: target.id,
        requester: { name: 'Jane Roe', email: 'jane@example.com', signature: 'Jane Roe', role: 'depicted_person' },
        deadlineAt: receipt.removalDeadline,
        resolveBy: receipt.resolutionDeadline,
      });
    });

    it('a takedown without the good-faith statement, or naming nothing on the site, is refused at its field', async () => {
      const owner = await member();
      const input = {
        kind: 'rights' as const,
        content: 'https://example.com/x',
        work: 'My photograph',
        statement: 'Copied',
        authorised: true as const,
        name: 'A',
        email: 'a@example.com',
        signature: 'A',
      };
      // Sent as a client would that skipped the form: the bus contract refuses it, naming the field.
      const noStatement = await failure(
        bus.request(identityRpc.fileTakedown, { input: input as TakedownInput, targets: [image(owner.id)], clientIp: '10.9.9.2' }),
      );
      expect(noStatement?.details?.fieldErrors?.['input.goodFaith']).toBe('Please confirm the good-faith statement.');
      const nothing = await failure(
        bus.request(identityRpc.fileTakedown, { input: { ...input, goodFaith: true }, targets: [], clientIp: '10.9.9.2' }),
      );
      expect(nothing?.details?.fieldErrors?.content).toMatch(/could not find that content/);
    });

    it('limits takedown requests per address', async () => {
      const owner = await member();
      const input = {
        kind: 'rights' as const,
        content: 'x',
        work: 'w',
        statement: 's',
        authorised: true as const,
        goodFaith: true as const,
        name: 'A',
        email: 'a@example.com',
        signature: 'A',
      };
      for (let i = 0; i < 5; i++) await bus.request(identityRpc.fileTakedown, { input, targets: [image(owner.id)], clientIp: '10.9.9.3' });
      const sixth = await failure(bus.request(identityRpc.fileTakedown, { input, targets: [image(owner.id)], clientIp: '10.9.9.3' }));
      expect(sixth?.code).toBe('RATE_LIMITED');
      await expect(
        bus.request(identityRpc.fileTakedown, { input, targets: [image(owner.id)], clientIp: '10.9.9.4' }),
      ).resolves.toBeTruthy();
    });

    it('a removal is audited, resolves every open case on the item, is announced and tells the owner', async () => {
      const owner = await member();
      const mod = await moderator();
      const target = image(owner.id);
      const first = await report((await member()).id, target);
      const second = await report((await member()).id, target, 'illegal');
      const entry = await bus.request(identityRpc.takeAction, {
        moderatorId: mod.id,
        input: { action: 'remove', targetKind: 'image', targetId: target.id, caseId: first.caseId, reason: 'Depicts a minor' },
        target,
      });
      expect(entry).toMatchObject({
        actorId: mod.id,
        actorLabel: mod.email,
        action: 'remove',
        targetId: target.id,
        reason: 'Depicts a minor',
      });
      const { cases } = await bus.request(identityRpc.listCases, { status: 'resolved', first: 100 });
      expect(cases.filter((item) => [first.caseId, second.caseId].includes(item.id)).map((item) => item.resolution)).toEqual([
        'remove',
        'remove',
      ]);
      const { notices } = await bus.request(identityRpc.listNotices, { userId: owner.id });
      expect(notices).toEqual([
        expect.objectContaining({
          kind: 'content_removed',
          targetKind: 'image',
          targetId: target.id,
          label: 'a lighthouse at dusk',
          reason: 'Depicts a minor',
        }),
      ]);
      await bus.request(identityRpc.dismissNotice, { userId: owner.id, noticeId: notices[0]!.id });
      expect((await bus.request(identityRpc.listNotices, { userId: owner.id })).notices).toEqual([]);
      await eventually(() =>
        expect(
          events.find((event) => event.type === identityEvents.moderationActioned.type && event.actorId === mod.id)?.data,
        ).toMatchObject({
          action: 'remove',
          targetKind: 'image',
          targetId: target.id,
          ownerId: owner.id,
          auditId: entry.id,
        }),
      );
      const { entries } = await bus.request(identityRpc.listAudit, { first: 10 });
      expect(entries[0]).toMatchObject({ id: entry.id, action: 'remove' });
    });

    it('only moderators act, and every action needs a reason', async () => {
      const owner = await member();
      const target = image(owner.id);
      const plain = await member();
      const input = { action: 'hide' as const, targetKind: 'image' as const, targetId: target.id, reason: 'spam' };
      expect((await failure(bus.request(identityRpc.takeAction, { moderatorId: plain.id, input, target })))?.code).toBe('FORBIDDEN');
      const mod = await moderator();
      const noReason = await failure(
        bus.request(identityRpc.takeAction, { moderatorId: mod.id, input: { ...input, reason: ' ' }, target }),
      );
      expect(noReason?.details?.fieldErrors?.['input.reason']).toBe('Please give a reason.');
      const noRating = await failure(
        bus.request(identityRpc.takeAction, { moderatorId: mod.id, input: { ...input, action: 'change_rating' }, target }),
      );
      expect(noRating?.details?.fieldErrors?.['input.rating']).toBe('Choose the new rating.');
    });

    it('the audit log cannot be changed or deleted, even with SQL', async () => {
      const mod = await moderator();
      const owner = await member();
      const target = image(owner.id);
      await bus.request(identityRpc.takeAction, {
        moderatorId: mod.id,
        input: { action: 'hide', targetKind: 'image', targetId: target.id, reason: 'spam' },
        target,
      });
      await expect(service.db.query(`UPDATE "identity"."moderation_audit" SET "reason" = 'edited'`)).rejects.toThrow(/append-only/);
      await expect(service.db.query(`DELETE FROM "identity"."moderation_audit"`)).rejects.toThrow(/append-only/);
      await expect(service.db.query(`TRUNCATE "identity"."moderation_audit"`)).rejects.toThrow(/append-only/);
      const { entries } = await bus.request(identityRpc.listAudit, { first: 100 });
      expect(entries.every((entry) => entry.reason !== 'edited')).toBe(true);
    });

    it('suspension ends every session, refuses sign-in with a clear message, and unsuspension lets the member back', async () => {
      const mod = await moderator();
      const suspended = await member();
      const second = await bus.request(identityRpc.login, { input: { email: suspended.email, password }, clientIp: '10.2.0.1' });
      const entry = await bus.request(identityRpc.takeAction, {
        moderatorId: mod.id,
        input: { action: 'suspend', targetKind: 'member', targetId: suspended.id, reason: 'Repeated minor-sexual prompts' },
        target: null,
      });
      expect((await bus.request(identityRpc.resolveSession, { sessionToken: suspended.token })).user).toBeNull();
      expect((await bus.request(identityRpc.resolveSession, { sessionToken: second.session.token })).user).toBeNull();
      await eventually(() => expect(endedSessions.length).toBeGreaterThanOrEqual(2));
      const refused = await failure(bus.request(identityRpc.login, { input: { email: suspended.email, password }, clientIp: '10.2.0.1' }));
      expect(refused).toMatchObject({
        code: 'ACCOUNT_SUSPENDED',
        message: 'Your account has been suspended. Contact support if you think this is a mistake.',
      });
      // A wrong password still says only that it is wrong.
      const wrong = await failure(
        bus.request(identityRpc.login, { input: { email: suspended.email, password: 'nope nope nope' }, clientIp: '10.2.0.1' }),
      );
      expect(wrong?.code).toBe('INVALID_CREDENTIALS');
      await eventually(() =>
        expect(events.find((event) => event.type === identityEvents.memberSuspended.type)?.data).toMatchObject({
          userId: suspended.id,
          auditId: entry.id,
        }),
      );
      await bus.request(identityRpc.takeAction, {
        moderatorId: mod.id,
        input: { action: 'unsuspend', targetKind: 'member', targetId: suspended.id, reason: 'Appeal upheld' },
        target: null,
      });
      const back = await bus.request(identityRpc.login, { input: { email: suspended.email, password }, clientIp: '10.2.0.1' });
      expect(back.user.id).toBe(suspended.id);
    });

    it('a moderator cannot suspend themselves or another moderator; an admin can', async () => {
      const mod = await moderator();
      const other = await moderator();
      const self = await failure(
        bus.request(identityRpc.takeAction, {
          moderatorId: mod.id,
          input: { action: 'suspend', targetKind: 'member', targetId: mod.id, reason: 'x' },
          target: null,
        }),
      );
      expect(self?.code).toBe('FORBIDDEN');
      const peer = await failure(
        bus.request(identityRpc.takeAction, {
          moderatorId: mod.id,
          input: { action: 'suspend', targetKind: 'member', targetId: other.id, reason: 'x' },
          target: null,
        }),
      );
      expect(peer?.message).toBe('Only an admin can suspend a moderator or an admin.');
      const admin = await member();
      await grantRoleOffline(service.db, admin.email, 'admin', 'first admin');
      await expect(
        bus.request(identityRpc.takeAction, {
          moderatorId: admin.id,
          input: { action: 'suspend', targetKind: 'member', targetId: other.id, reason: 'abuse of tools' },
          target: null,
        }),
      ).resolves.toMatchObject({ action: 'suspend' });
    });

    it('roles: the command line and admins grant them, members cannot, and each grant is audited', async () => {
      const target = await member();
      const user = await grantRoleOffline(service.db, target.email, 'moderator', 'night shift');
      expect(user.role).toBe('moderator');
      expect((await bus.request(identityRpc.resolveSession, { sessionToken: target.token })).user?.role).toBe('moderator');
      const plain = await member();
      const refused = await failure(
        bus.request(identityRpc.grantRole, { email: plain.email, role: 'admin', actorId: plain.id, reason: 'me' }),
      );
      expect(refused?.code).toBe('FORBIDDEN');
      const { entries } = await bus.request(identityRpc.listAudit, { first: 100 });
      expect(entries.find((entry) => entry.targetId === target.id)).toMatchObject({
        action: 'grant_role',
        actorId: null,
        actorLabel: 'command line',
        detail: 'moderator',
        reason: 'night shift',
      });
    });

    it('rating preferences default to blur and are validated', async () => {
      const account = await member();
      expect(account.ratingPreferences).toEqual({ suggestive: 'blur', explicit: 'blur' });
      expect(account.ageAssurance).toMatchObject({ level: 'declared', method: 'self_declaration' });
      const updated = await bus.request(identityRpc.updatePreferences, {
        userId: account.id,
        ratingPreferences: { suggestive: 'show', explicit: 'hide' },
      });
      expect(updated.ratingPreferences).toEqual({ suggestive: 'show', explicit: 'hide' });
      const bad = await failure(
        bus.request(identityRpc.updatePreferences, { userId: account.id, ratingPreferences: { suggestive: 'maybe' } as never }),
      );
      expect(bad?.code).toBe('VALIDATION_FAILED');
    });

    it('a case names its reporter and says whether the owner is suspended now; a takedown has no reporter', async () => {
      const mod = await moderator();
      const owner = await member();
      const email = `r${randomUUID().slice(0, 8)}@example.com`;
      const named = await bus.request(identityRpc.register, {
        input: {
          email,
          password,
          confirmPassword: password,
          firstName: 'Rita',
          lastName: 'Quill',
          dateOfBirth: '1990-01-01',
          acceptTerms: true,
        },
        clientIp: '10.1.0.2',
      });
      const unnamed = await member();
      const target = image(owner.id);
      const byNamed = await report(named.user.id, target, 'spam', null);
      const byUnnamed = await report(unnamed.id, target, 'other', null);
      const receipt = await bus.request(identityRpc.fileTakedown, {
        input: {
          kind: 'rights',
          content: target.id,
          work: 'My photograph',
          statement: 'Copied without a licence',
          authorised: true,
          goodFaith: true,
          name: 'Jane Roe',
          email: 'jane@example.com',
          signature: 'Jane Roe',
        },
        targets: [target],
        clientIp: '10.9.9.5',
      });
      const openCases = async () => (await bus.request(identityRpc.listCases, { status: 'open', first: 100 })).cases;
      const onTarget = async () => (await openCases()).filter((item) => item.targetId === target.id);

      const filed = await openCases();
      expect(filed.find((item) => item.id === byNamed.caseId)).toMatchObject({
        reporter: { id: named.user.id, email, name: 'Rita Quill' },
        ownerSuspended: false,
      });
      expect(filed.find((item) => item.id === byUnnamed.caseId)?.reporter).toEqual({ id: unnamed.id, email: unnamed.email, name: null });
      expect(filed.find((item) => item.reference === receipt.reference)).toMatchObject({
        kind: 'takedown',
        reporterId: null,
        reporter: null,
      });

      // Suspending the owner from outside these cases leaves them open, each saying so.
      await bus.request(identityRpc.takeAction, {
        moderatorId: mod.id,
        input: { action: 'suspend', targetKind: 'member', targetId: owner.id, reason: 'Spam ring' },
        target: null,
      });
      expect((await onTarget()).map((item) => item.ownerSuspended)).toEqual([true, true, true]);
      await bus.request(identityRpc.takeAction, {
        moderatorId: mod.id,
        input: { action: 'unsuspend', targetKind: 'member', targetId: owner.id, reason: 'Appeal upheld' },
        target: null,
      });
      expect((await onTarget()).map((item) => item.ownerSuspended)).toEqual([false, false, false]);
    });
  },
);
