import {
  deleteSelfAiPhoto,
  isSignedOutError,
  listSelfAiPhotos,
  parseRetryAfter,
  refusalReasonOf,
  REGISTER_SELF_AI_PATH,
  registerSelfAiPhoto,
  requestUploadTarget,
  retryAfterOf,
  SELF_AI_PHOTOS_PATH,
  serverReasonOf,
  UPLOAD_TARGET_PATH,
  uploadRefusalOf,
} from './self-ai-api';
import { ApiError } from '../../lib/session-api';

const PHOTO = { id: 'photo-1', url: '/api/self-ai/photos/photo-1/file', createdAt: '2025-09-01T10:00:00.000Z' };
const ATTESTED = { ofSelf: true, adult: true };

/** A fetch that answers once with `status` and JSON `body` (no body for null), recording the request. */
function fakeFetch(status: number, body: unknown, headers: Record<string, string> = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  });
  return { impl: impl as unknown as typeof fetch, calls };
}

const refusal = (status: number, body: unknown) => new ApiError(status, body);

describe('requestUploadTarget', () => {
  it('POSTs without a body, with the session cookie, and answers the upload address', async () => {
    const { impl, calls } = fakeFetch(200, { uploadURL: '/api/objects/upload/abc?sig=1', expiresAt: '2025-09-01T10:15:00.000Z' });
    await expect(requestUploadTarget(impl)).resolves.toEqual({
      uploadURL: '/api/objects/upload/abc?sig=1',
      expiresAt: '2025-09-01T10:15:00.000Z',
    });
    expect(calls[0]!.url).toBe(UPLOAD_TARGET_PATH);
    expect(calls[0]!.init).toMatchObject({ method: 'POST', credentials: 'same-origin', cache: 'no-store' });
    expect(calls[0]!.init.body).toBeUndefined();
  });

  it('refuses an answer without an address (spec §5)', async () => {
    await expect(requestUploadTarget(fakeFetch(200, { expiresAt: null }).impl)).rejects.toThrow('Cannot upload to an undefined URL');
  });

  it('throws the server error, status and code kept', async () => {
    const failure = requestUploadTarget(fakeFetch(429, { message: 'Slow down', code: 'RATE_LIMITED' }).impl);
    await expect(failure).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', serverMessage: 'Slow down' });
  });
});

describe('registerSelfAiPhoto', () => {
  it('PUTs the upload address and the attestation as JSON, and answers the photo', async () => {
    const { impl, calls } = fakeFetch(201, PHOTO);
    await expect(registerSelfAiPhoto('/api/objects/upload/abc', ATTESTED, impl)).resolves.toEqual(PHOTO);
    expect(calls[0]!.url).toBe(REGISTER_SELF_AI_PATH);
    expect(calls[0]!.init.method).toBe('PUT');
    expect(calls[0]!.init.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ imageURL: '/api/objects/upload/abc', attestation: ATTESTED });
  });

  it("keeps a busy server's Retry-After on its refusal, and its default when the header is missing", async () => {
    const busy = { message: 'Many photos are being processed right now. Please try again in a moment.', code: 'UNAVAILABLE' };
    const refused = await registerSelfAiPhoto('/x', ATTESTED, fakeFetch(503, busy, { 'retry-after': '7' }).impl).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(uploadRefusalOf(refused)).toBe('busy');
    expect(retryAfterOf(refused)).toBe(7);
    const bare = await registerSelfAiPhoto('/x', ATTESTED, fakeFetch(503, null).impl).catch((e: unknown) => e);
    expect([uploadRefusalOf(bare), retryAfterOf(bare)]).toEqual(['busy', 5]);
  });

  it('rejects an answer that is not a photo', async () => {
    await expect(registerSelfAiPhoto('/x', ATTESTED, fakeFetch(201, { ok: true }).impl)).rejects.toThrow('without a photo');
  });
});

describe('listSelfAiPhotos and deleteSelfAiPhoto', () => {
  it('lists the photos as given', async () => {
    const { impl, calls } = fakeFetch(200, [PHOTO, { ...PHOTO, id: 'photo-2' }]);
    await expect(listSelfAiPhotos(impl)).resolves.toEqual([PHOTO, { ...PHOTO, id: 'photo-2' }]);
    expect(calls[0]).toMatchObject({ url: SELF_AI_PHOTOS_PATH, init: { method: 'GET' } });
  });

  it('deletes by id, the id escaped', async () => {
    const { impl, calls } = fakeFetch(200, { id: 'a/b' });
    await deleteSelfAiPhoto('a/b', impl);
    expect(calls[0]).toMatchObject({ url: `${SELF_AI_PHOTOS_PATH}/a%2Fb`, init: { method: 'DELETE' } });
  });

  it('reports a signed-out session as such', async () => {
    const failure = await listSelfAiPhotos(fakeFetch(401, { message: 'Unauthorized' }).impl).catch((error: unknown) => error);
    expect(isSignedOutError(failure)).toBe(true);
    expect(isSignedOutError(new Error('offline'))).toBe(false);
  });
});

describe('uploadRefusalOf', () => {
  it('names the refusals the server makes by status', () => {
    expect(uploadRefusalOf(refusal(415, { message: 'Only JPG and PNG photos are accepted.' }))).toBe('unsupportedType');
    expect(uploadRefusalOf(refusal(413, { message: 'Too large' }))).toBe('tooLarge');
    expect(uploadRefusalOf(refusal(422, { message: 'Unreadable' }))).toBe('unreadable');
    expect(uploadRefusalOf(refusal(429, { message: 'Slow down' }))).toBe('rateLimited');
  });

  it("names INVALID_IMAGE (an unreadable file or a pixel flood) by its code, and leaves another 422's reason to the server", () => {
    const invalid = refusal(422, { code: 'INVALID_IMAGE', message: 'The photo has more than 40 megapixels.' });
    expect(uploadRefusalOf(invalid)).toBe('unreadable');
    expect(refusalReasonOf(invalid, (reason) => `translated:${reason}`)).toBe('translated:unreadable');
    const rejected = refusal(422, { code: 'CONTENT_REJECTED', message: 'Not allowed here.', policyCategory: 'minors' });
    expect(uploadRefusalOf(rejected)).toBeUndefined();
    expect(refusalReasonOf(rejected, (reason) => `translated:${reason}`)).toBe('Not allowed here.');
    expect(uploadRefusalOf(refusal(415, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'x' }))).toBe('unsupportedType');
    expect(uploadRefusalOf(refusal(413, { code: 'PAYLOAD_TOO_LARGE', message: 'x' }))).toBe('tooLarge');
  });

  it('reads a 400 as a missing attestation only when it is about the attestation', () => {
    const message = 'Confirm that the photos are of you and that you are 18 or older.';
    expect(uploadRefusalOf(refusal(400, { code: 'VALIDATION_FAILED', message }))).toBe('attestationRequired');
    expect(
      uploadRefusalOf(refusal(400, { code: 'VALIDATION_FAILED', message: 'x', fieldErrors: { 'attestation.adult': 'Required' } })),
    ).toBe('attestationRequired');
    expect(uploadRefusalOf(refusal(400, { code: 'VALIDATION_FAILED', message: 'imageURL is not yours' }))).toBeUndefined();
  });

  it('knows nothing of other failures, and keeps the server words for them', () => {
    expect(uploadRefusalOf(refusal(500, { message: 'Boom' }))).toBeUndefined();
    expect(uploadRefusalOf(new Error('Could not PUT'))).toBeUndefined();
    expect(serverReasonOf(refusal(400, { message: 'imageURL is not yours' }))).toBe('imageURL is not yours');
    expect(serverReasonOf(new Error('Could not PUT'))).toBeUndefined();
  });
});

describe('retryAfterOf and parseRetryAfter', () => {
  it('asks for a retry only of a busy server', () => {
    expect(retryAfterOf(refusal(503, { code: 'UNAVAILABLE', message: 'Busy' }))).toBe(5);
    expect(retryAfterOf(refusal(422, { code: 'INVALID_IMAGE', message: 'x' }))).toBeUndefined();
    expect(retryAfterOf(refusal(500, { message: 'Boom' }))).toBeUndefined();
    expect(retryAfterOf(new Error('offline'))).toBeUndefined();
  });

  it('reads seconds or an HTTP date, and nothing else', () => {
    const now = Date.parse('2025-09-01T10:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5);
    expect(parseRetryAfter(' 12 ', now)).toBe(12);
    expect(parseRetryAfter('Mon, 01 Sep 2025 10:00:09 GMT', now)).toBe(9);
    expect(parseRetryAfter('Mon, 01 Sep 2025 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
