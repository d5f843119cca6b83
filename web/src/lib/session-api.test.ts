import { ApiError, fetchCurrentUser, GRAPHQL_PATH, login, LOGIN_PATH, ME_QUERY, register, SIGN_OUT_PATH, signOut } from './session-api';

const MEMBER = {
  id: '2b1f4c1e-8a7d-4f8e-9a51-3c2d1e0f9a8b',
  email: 'mira@example.com',
  firstName: 'Mira',
  lastName: null,
  profileImageUrl: null,
  createdAt: '2025-01-02T03:04:05.000Z',
  tokens: 10,
  role: 'MEMBER',
};

/** A fetch that answers once with `status` and `body` (JSON unless a string), recording the request. */
function fakeFetch(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json' },
    });
  });
  return { impl: impl as unknown as typeof fetch, calls };
}

describe('fetchCurrentUser', () => {
  it('asks GraphQL `me` once, uncached, with the session cookie', async () => {
    const { impl, calls } = fakeFetch(200, { data: { me: MEMBER } });
    await expect(fetchCurrentUser(impl)).resolves.toEqual(MEMBER);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(GRAPHQL_PATH);
    expect(calls[0]!.init).toMatchObject({ method: 'POST', credentials: 'same-origin', cache: 'no-store' });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ operationName: 'Me', query: ME_QUERY });
  });

  it('is null for a visitor', async () => {
    await expect(fetchCurrentUser(fakeFetch(200, { data: { me: null } }).impl)).resolves.toBeNull();
    const unauthenticated = { errors: [{ message: 'Unauthorized', extensions: { code: 'UNAUTHENTICATED' } }], data: { me: null } };
    await expect(fetchCurrentUser(fakeFetch(200, unauthenticated).impl)).resolves.toBeNull();
  });

  it('counts a missing balance as 0', async () => {
    const { tokens: _tokens, ...withoutTokens } = MEMBER;
    await expect(fetchCurrentUser(fakeFetch(200, { data: { me: withoutTokens } }).impl)).resolves.toEqual({ ...MEMBER, tokens: 0 });
  });

  it('reads the role in either spelling, and counts a missing or unknown one as a plain member', async () => {
    const moderator = { ...MEMBER, role: 'MODERATOR' };
    await expect(fetchCurrentUser(fakeFetch(200, { data: { me: moderator } }).impl)).resolves.toEqual(moderator);
    await expect(login({ email: MEMBER.email, password: 'x' }, fakeFetch(200, { ...MEMBER, role: 'admin' }).impl)).resolves.toEqual({
      ...MEMBER,
      role: 'ADMIN',
    });
    const { role: _role, ...withoutRole } = MEMBER;
    await expect(fetchCurrentUser(fakeFetch(200, { data: { me: withoutRole } }).impl)).resolves.toEqual(MEMBER);
    await expect(fetchCurrentUser(fakeFetch(200, { data: { me: { ...MEMBER, role: 'OWNER' } } }).impl)).resolves.toEqual(MEMBER);
  });

  it('rejects on server failures rather than guessing', async () => {
    await expect(fetchCurrentUser(fakeFetch(503, '<html>Service Unavailable</html>').impl)).rejects.toMatchObject({
      name: 'ApiError',
      status: 503,
    });
    const failed = { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }], data: null };
    await expect(fetchCurrentUser(fakeFetch(200, failed).impl)).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
  });
});

describe('login and register', () => {
  it('post JSON to the REST endpoints and answer the member', async () => {
    const signIn = fakeFetch(200, MEMBER);
    await expect(login({ email: MEMBER.email, password: 'secret password' }, signIn.impl)).resolves.toEqual(MEMBER);
    expect(signIn.calls[0]!.url).toBe(LOGIN_PATH);
    expect(signIn.calls[0]!.init).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(String(signIn.calls[0]!.init.body))).toEqual({ email: MEMBER.email, password: 'secret password' });

    const signUp = fakeFetch(201, MEMBER);
    const input = {
      email: MEMBER.email,
      password: 'secret password',
      confirmPassword: 'secret password',
      firstName: 'Mira',
      lastName: null,
      dateOfBirth: '1990-05-17',
      acceptTerms: true,
    };
    await expect(register(input, signUp.impl)).resolves.toEqual(MEMBER);
    expect(JSON.parse(String(signUp.calls[0]!.init.body))).toEqual(input);
  });

  it('turn error answers into ApiError with code, message and field errors', async () => {
    const wrong = fakeFetch(401, { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
    const error = await login({ email: 'a@b.co', password: 'x' }, wrong.impl).catch((caught: unknown) => caught);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS', serverMessage: 'Invalid email or password' });

    const invalid = fakeFetch(400, {
      message: 'Invalid input',
      code: 'VALIDATION_FAILED',
      fieldErrors: { email: 'Please enter a valid email address', password: ['Password must be at least 8 characters'] },
    });
    await expect(login({ email: 'x', password: 'y' }, invalid.impl)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { email: 'Please enter a valid email address', password: 'Password must be at least 8 characters' },
    });
  });

  it('read 401 and 429 without a JSON body as UNAUTHENTICATED and RATE_LIMITED', async () => {
    await expect(login({ email: 'a@b.co', password: 'x' }, fakeFetch(429, 'Too Many Requests').impl)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      serverMessage: undefined,
    });
    await expect(login({ email: 'a@b.co', password: 'x' }, fakeFetch(401, '').impl)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('signOut', () => {
  it('posts to /api/signout and rejects when the server does not end the session', async () => {
    const ok = fakeFetch(200, { ok: true });
    await expect(signOut(ok.impl)).resolves.toBeUndefined();
    expect(ok.calls[0]).toMatchObject({ url: SIGN_OUT_PATH, init: { method: 'POST' } });
    await expect(signOut(fakeFetch(500, { message: 'Internal server error', code: 'INTERNAL' }).impl)).rejects.toBeInstanceOf(ApiError);
  });
});
