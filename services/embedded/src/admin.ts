import { HIGHLY_EFFECTIVE_METHODS, HighlyEffectiveMethod, grantRoleOffline, identityService, recordAgeCheckOffline } from '@app/identity';
import { Database, Infra, assertValidEnvironment, lockDataDir } from '@app/kit';
import { Email, Role, type User } from '@app/schema';
import { PLATFORM_ENVIRONMENTS } from './configuration';

const USAGE = `Usage: npm run admin -- grant-role <email> <member|moderator|admin> [reason]
       npm run admin -- verify-age <email> <method> <reference>

grant-role gives a member a role (member takes moderator or admin away).
verify-age records an age check the operator ran outside the product (a provider's dashboard, an ID
seen by support): the member becomes verified. <method> is one Ofcom counts as highly effective:
${HIGHLY_EFFECTIVE_METHODS.join(', ')}; <reference> is the provider's or support's reference for the check.

Both work in both run modes: with DATABASE_URL they write to PostgreSQL while the product runs; on the
embedded defaults, stop the product first (it holds DATA_DIR). Each change is recorded in the moderation
audit log as done by the command line.`;

type Command = { run: (db: Database) => Promise<User>; done: (user: User) => string };

/** The command the arguments name, or the message that says what is wrong with them. */
function parse(args: string[]): Command | string {
  const [command, rawEmail, rawValue, ...rest] = args;
  if ((command !== 'grant-role' && command !== 'verify-age') || !rawEmail || !rawValue) return USAGE;
  const email = Email.safeParse(rawEmail);
  if (!email.success) return `Not an e-mail address: ${rawEmail}`;
  if (command === 'grant-role') {
    const role = Role.safeParse(rawValue);
    if (!role.success) return `Not a role: ${rawValue} (member, moderator or admin)`;
    const reason = rest.join(' ').trim() || `granted ${role.data} from the command line`;
    return { run: (db) => grantRoleOffline(db, email.data, role.data, reason), done: (user) => `${user.email} is now ${user.role}.` };
  }
  const method = HighlyEffectiveMethod.safeParse(rawValue);
  if (!method.success) return `Not a highly effective method: ${rawValue} (${HIGHLY_EFFECTIVE_METHODS.join(', ')})`;
  const reference = rest.join(' ').trim();
  if (!reference) return 'Name the reference of the check (the provider’s or support’s), so the audit log can point to it.';
  return {
    run: (db) => recordAgeCheckOffline(db, email.data, method.data, reference),
    done: (user) => `${user.email} is now age-verified (${user.ageAssurance.method}).`,
  };
}

/** Operators' command line: the first admin has to come from somewhere, and it should not be the operator token. */
async function main(args: string[]): Promise<number> {
  const command = parse(args);
  if (typeof command === 'string') {
    console.error(command);
    return 2;
  }
  assertValidEnvironment(process.env, PLATFORM_ENVIRONMENTS);
  const infra = Infra.fromEnvironment();
  const lock = await lockDataDir(infra);
  const db = await Database.open(infra, identityService);
  try {
    const user = await command.run(db);
    // The command's answer, on stdout for scripts.
    process.stdout.write(`${command.done(user)}\n`);
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
