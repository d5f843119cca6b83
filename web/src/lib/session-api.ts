/**
 * Who is signed in, signing in, registering and signing out, with plain `fetch`, so the signed-out
 * screens load no GraphQL client (the member screens use Apollo: lib/apollo-client.ts).
 *
 * - The current member is the GraphQL `me` query in one POST: for a visitor it answers 200 with
 *   `me: null`. `GET /api/user` says the same with a 401, which the browser logs as a console error
 *   on every signed-out page load (Lighthouse "errors-in-console").
 * - Sign-in, registration and sign-out use the REST endpoints (spec §7), whose errors carry the same
 *   codes and field errors as GraphQL's (`{ message, code, fieldErrors? }`).
 */
import type { CurrentUserFragment, LoginInput, RegisterInput, Role } from '../gql/graphql';

export const GRAPHQL_PATH = '/graphql';
export const LOGIN_PATH = '/api/auth/login';
export const REGISTER_PATH = '/api/auth/register';
export const SIGN_OUT_PATH = '/api/signout';

/** The `CurrentUser` fragment's fields (auth/auth-operations.ts), as one plain query. */
export const ME_QUERY = 'query Me { me { id email firstName lastName profileImageUrl createdAt tokens role } }';

export type SessionUser = CurrentUserFragment;

type FetchLike = typeof fetch;

const STATUS_CODES: Record<number, string> = { 401: 'UNAUTHENTICATED', 429: 'RATE_LIMITED' };

/** A failed call: the server's `{ message, code, fieldErrors? }` (REST) or first GraphQL error, or the bare status. */
export class ApiError extends Error {
  readonly status: number;
  /** The answer's error code; without one, 401 and 429 still read as UNAUTHENTICATED and RATE_LIMITED. */
  readonly code: string | undefined;
  /** The message the server gave, if any (never a transport error's text). */
  readonly serverMessage: string | undefined;
  readonly fieldErrors: Record<string, string>;

  constructor(status: number, body: unknown) {
    const record = isRecord(body) ? body : {};
    const serverMessage = typeof record['message'] === 'string' && record['message'] ? record['message'] : undefined;
    super(serverMessage ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.code = typeof record['code'] === 'string' ? record['code'] : STATUS_CODES[status];
    this.fieldErrors = normalizeFieldErrors(record['fieldErrors']);
  }

  static is(error: unknown): error is ApiError {
    return error instanceof ApiError;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** `{ field: message }` or `{ field: [message, ...] }` → `{ field: message }`. */
function normalizeFieldErrors(raw: unknown): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  if (!isRecord(raw)) return fieldErrors;
  for (const [field, message] of Object.entries(raw)) {
    if (typeof message === 'string') fieldErrors[field] = message;
    else if (Array.isArray(message) && typeof message[0] === 'string') fieldErrors[field] = message[0];
  }
  return fieldErrors;
}

/** The body is always read, even when unused: an unread answer keeps its request open in the browser. */
async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

const ROLES: readonly string[] = ['MEMBER', 'MODERATOR', 'ADMIN'] satisfies Role[];

/** GraphQL answers `MODERATOR`, the REST endpoints `moderator`; anything else (or nothing) is a plain member. */
function toRole(value: unknown): Role {
  const role = typeof value === 'string' ? value.toUpperCase() : '';
  return ROLES.includes(role) ? (role as Role) : 'MEMBER';
}

/** The member with the `CurrentUser` fields; a missing balance counts as 0 (spec §3), a missing role as MEMBER. */
export function toSessionUser(body: unknown): SessionUser {
  if (!isRecord(body) || typeof body['id'] !== 'string' || typeof body['email'] !== 'string') {
    throw new Error('The server answered without a member');
  }
  const text = (key: string) => (typeof body[key] === 'string' ? body[key] : null);
  return {
    id: body['id'],
    email: body['email'],
    firstName: text('firstName'),
    lastName: text('lastName'),
    profileImageUrl: text('profileImageUrl'),
    createdAt: text('createdAt') ?? '',
    tokens: typeof body['tokens'] === 'number' ? body['tokens'] : 0,
    role: toRole(body['role']),
  };
}

async function post(path: string, body: unknown, fetchImpl: FetchLike): Promise<{ response: Response; answer: unknown }> {
  const response = await fetchImpl(path, {
    method: 'POST',
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { response, answer: await readJson(response) };
}

/**
 * The signed-in member, or null when signed out. Asked once per call: never retried nor cached
 * (spec §7). A network failure, an error answer or a GraphQL error other than UNAUTHENTICATED rejects.
 */
export async function fetchCurrentUser(fetchImpl: FetchLike = fetch): Promise<SessionUser | null> {
  const { response, answer } = await post(GRAPHQL_PATH, { operationName: 'Me', query: ME_QUERY }, fetchImpl);
  const errors = isRecord(answer) && Array.isArray(answer['errors']) ? (answer['errors'] as unknown[]) : [];
  const first = errors.find(isRecord);
  if (first) {
    const extensions = isRecord(first['extensions']) ? first['extensions'] : {};
    const error = new ApiError(response.status, { ...extensions, message: first['message'] });
    if (error.code === 'UNAUTHENTICATED') return null;
    throw error;
  }
  if (!response.ok) throw new ApiError(response.status, answer);
  const data = isRecord(answer) && isRecord(answer['data']) ? answer['data'] : null;
  if (!data) throw new ApiError(response.status, answer);
  return data['me'] ? toSessionUser(data['me']) : null;
}

async function postRest(path: string, body: unknown, fetchImpl: FetchLike): Promise<unknown> {
  const { response, answer } = await post(path, body, fetchImpl);
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

/** `POST /api/auth/login`: sets the session cookie and answers the member. */
export async function login(input: LoginInput, fetchImpl: FetchLike = fetch): Promise<SessionUser> {
  return toSessionUser(await postRest(LOGIN_PATH, input, fetchImpl));
}

/** `POST /api/auth/register`: creates the member, sets the session cookie and answers the member. */
export async function register(input: RegisterInput, fetchImpl: FetchLike = fetch): Promise<SessionUser> {
  return toSessionUser(await postRest(REGISTER_PATH, input, fetchImpl));
}

/** `POST /api/signout`: ends the session and clears the cookie. */
export async function signOut(fetchImpl: FetchLike = fetch): Promise<void> {
  await postRest(SIGN_OUT_PATH, {}, fetchImpl);
}
