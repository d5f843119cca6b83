import { grantRoleOffline, identityService } from '@app/identity';
import { Database, Infra, assertValidEnvironment, lockDataDir } from '@app/kit';
import { Email, Role } from '@app/schema';
import { PLATFORM_ENVIRONMENTS } from './configuration';

const USAGE = `Usage: npm run admin -- grant-role <email> <member|moderator|admin> [reason]

Gives a member a role (member takes moderator or admin away). Works in both run modes: with DATABASE_URL
it writes to PostgreSQL while the product runs; on the embedded defaults, stop the product first (it holds DATA_DIR).
The change is recorded in the moderation audit log as done by the command line.`;

/** Operators' command line: the first admin has to come from somewhere, and it should not be the operator token. */
async function main(args: string[]): Promise<number> {
  const [command, rawEmail, rawRole, ...reasonWords] = args;
  if (command !== 'grant-role' || !rawEmail || !rawRole) {
    console.error(USAGE);
    return 2;
  }
  const email = Email.safeParse(rawEmail);
  const role = Role.safeParse(rawRole);
  if (!email.success || !role.success) {
    console.error(!email.success ? `Not an e-mail address: ${rawEmail}` : `Not a role: ${rawRole} (member, moderator or admin)`);
    return 2;
  }
  assertValidEnvironment(process.env, PLATFORM_ENVIRONMENTS);
  const infra = Infra.fromEnvironment();
  const lock = await lockDataDir(infra);
  const db = await Database.open(infra, identityService);
  try {
    const reason = reasonWords.join(' ').trim() || `granted ${role.data} from the command line`;
    const user = await grantRoleOffline(db, email.data, role.data, reason);
    // The command's answer, on stdout for scripts.
    process.stdout.write(`${user.email} is now ${user.role}.\n`);
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await db.close();
    lock?.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
