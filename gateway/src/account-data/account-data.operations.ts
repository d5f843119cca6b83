import type { Readable } from 'node:stream';
import { hashSessionToken } from '@app/kit';
import { AppError, DeleteAccountInput } from '@app/schema';
import { type Caller, type Services, member } from '../operations/caller';
import { parseInput } from '../operations/input';
import { accountArchive } from './account-archive';

/** Where clients download the archive (a plain GET, so the browser saves it as a file). */
export const ACCOUNT_EXPORT_PATH = '/api/account/export';

/** Export and deletion act on the whole account: only the member signed in to the site, never a third-party token. */
function accountHolder(caller: Caller, what: string) {
  const user = member(caller);
  if (caller.scopes) throw new AppError('FORBIDDEN', `Access tokens cannot ${what}; sign in to the site for it.`);
  return user;
}

export function accountExportUrl(caller: Caller): string {
  accountHolder(caller, 'export the account');
  return ACCOUNT_EXPORT_PATH;
}

export interface AccountArchive {
  fileName: string;
  /** The ZIP, produced while it is read. */
  stream: Readable;
}

/** Everything the member owns as one ZIP (TRUST-AND-SAFETY 26), streamed part by part, page by page. */
export async function exportAccount(services: Services, caller: Caller, now = new Date()): Promise<AccountArchive> {
  const user = accountHolder(caller, 'export the account');
  const stream = await accountArchive(services.accountData, user.id, caller.meta);
  return { fileName: `account-export-${now.toISOString().slice(0, 10)}.zip`, stream };
}

/** Deletes the account after checking the password again; the session cookie goes with it. */
export async function deleteAccount(services: Services, caller: Caller, input: unknown): Promise<true> {
  const user = accountHolder(caller, 'delete the account');
  await services.accountData.deleteAccount(user.id, parseInput(DeleteAccountInput, input), caller.meta);
  // Every gateway hears the sessions end; this one forgets the caller's at once, before answering.
  if (caller.session.token) services.identity.forgetSession(hashSessionToken(caller.session.token));
  caller.session.end();
  return true;
}
