import { registerSelfAiPhoto, uploadRefusalOf } from './self-ai-api';
import {
  createUploadSigner,
  finishedUploadOf,
  registerWithRetries,
  SELF_AI_MAX_RETRY_WAIT_SECONDS,
  SELF_AI_REGISTER_RETRIES,
  SELF_AI_RESTRICTIONS,
} from './self-ai-upload';
import { ApiError } from '../../lib/session-api';

const BASE = 'http://127.0.0.1:3000/my-self-ai';

describe('the Self-AI restrictions (spec §5/§9)', () => {
  it('allow 5 JPG or PNG files of at most 10485760 bytes each', () => {
    expect(SELF_AI_RESTRICTIONS).toEqual({
      maxNumberOfFiles: 5,
      maxFileSize: 10_485_760,
      allowedFileTypes: ['image/jpeg', 'image/png', '.jpg', '.jpeg', '.png'],
    });
  });
});

describe('createUploadSigner', () => {
  it('gets a fresh target for each whole-object PUT and hands Uppy an absolute URL', async () => {
    const targets = ['/api/objects/upload/one?sig=a', 'https://bucket.example.com/uploads/m/two?X-Amz-Signature=b'];
    const requestTarget = jest.fn(async () => ({ uploadURL: targets.shift()!, expiresAt: null }));
    const signer = createUploadSigner(BASE, requestTarget);
    await expect(signer.signRequest({ method: 'PUT', key: 'k1-a.png' })).resolves.toEqual({
      url: 'http://127.0.0.1:3000/api/objects/upload/one?sig=a',
    });
    await expect(signer.signRequest({ method: 'PUT', key: 'k2-b.png' })).resolves.toEqual({
      url: 'https://bucket.example.com/uploads/m/two?X-Amz-Signature=b',
    });
    expect(requestTarget).toHaveBeenCalledTimes(2);
  });

  it('registers a finished upload with the address the server issued for its key', async () => {
    const signer = createUploadSigner(BASE, async () => ({ uploadURL: '/api/objects/upload/one?sig=a', expiresAt: null }));
    await signer.signRequest({ method: 'PUT', key: 'k1-a.png' });
    expect(signer.imageURLFor('k1-a.png', 'http://127.0.0.1:3000/api/objects/upload/one')).toBe('/api/objects/upload/one?sig=a');
    signer.forget('k1-a.png');
    expect(signer.imageURLFor('k1-a.png', 'http://127.0.0.1:3000/api/objects/upload/one')).toBe(
      'http://127.0.0.1:3000/api/objects/upload/one',
    );
    expect(signer.imageURLFor(undefined, undefined)).toBeUndefined();
  });

  it('signs nothing of a multipart upload, which this page never starts', async () => {
    const requestTarget = jest.fn();
    const signer = createUploadSigner(BASE, requestTarget);
    await expect(signer.signRequest({ method: 'POST', key: 'k' })).rejects.toThrow('Multipart uploads are turned off');
    await expect(signer.signRequest({ method: 'PUT', key: 'k', uploadId: 'u' })).rejects.toThrow('Multipart uploads are turned off');
    expect(requestTarget).not.toHaveBeenCalled();
  });

  it('passes on a failure to get a target', async () => {
    const signer = createUploadSigner(BASE, async () => {
      throw new Error('Cannot upload to an undefined URL');
    });
    await expect(signer.signRequest({ method: 'PUT', key: 'k' })).rejects.toThrow('Cannot upload to an undefined URL');
  });
});

describe('finishedUploadOf', () => {
  it("reads the key and location of @uppy/aws-s3's response", () => {
    expect(finishedUploadOf({ body: { key: 'k1', location: 'http://h/x' }, uploadURL: 'http://h/x' })).toEqual({
      key: 'k1',
      location: 'http://h/x',
    });
    expect(finishedUploadOf({ uploadURL: 'http://h/y' })).toEqual({ key: undefined, location: 'http://h/y' });
    expect(finishedUploadOf(undefined)).toEqual({ key: undefined, location: undefined });
  });
});

describe('registerWithRetries', () => {
  const PHOTO = { id: 'photo-1', url: '/api/self-ai/photos/photo-1/photo', createdAt: '2025-09-01T10:00:00.000Z' };
  const BUSY = { message: 'Many photos are being processed right now. Please try again in a moment.', code: 'UNAVAILABLE' };

  /** A fetch that gives each answer in turn: [status, body, headers]. */
  function scriptedFetch(answers: [number, unknown, Record<string, string>?][]) {
    const impl = jest.fn(async () => {
      const [status, body, headers = {}] = answers.shift()!;
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
    });
    return impl as unknown as typeof fetch & jest.Mock;
  }

  it("sends the same registration again after a busy server's Retry-After, and answers the photo", async () => {
    const fetchImpl = scriptedFetch([
      [503, BUSY, { 'retry-after': '5' }],
      [503, BUSY, { 'retry-after': '2' }],
      [201, PHOTO],
    ]);
    const wait = jest.fn(async () => undefined);
    const onRetry = jest.fn();
    const photo = await registerWithRetries(() => registerSelfAiPhoto('/api/objects/upload/u', { ofSelf: true, adult: true }, fetchImpl), {
      wait,
      onRetry,
    });
    expect(photo).toEqual(PHOTO);
    expect(wait.mock.calls).toEqual([[5000], [2000]]);
    expect(onRetry.mock.calls).toEqual([
      [1, 5],
      [2, 2],
    ]);
    const bodies = fetchImpl.mock.calls.map((call: unknown[]) => (call[1] as RequestInit).body);
    expect(new Set(bodies).size).toBe(1);
  });

  it(`gives up after ${SELF_AI_REGISTER_RETRIES} retries and throws the busy refusal`, async () => {
    const register = jest.fn(async () => {
      throw new ApiError(503, BUSY);
    });
    const wait = jest.fn(async () => undefined);
    const failure = await registerWithRetries(register, { wait }).catch((error: unknown) => error);
    expect(uploadRefusalOf(failure)).toBe('busy');
    expect(register).toHaveBeenCalledTimes(SELF_AI_REGISTER_RETRIES + 1);
    expect(wait).toHaveBeenCalledTimes(SELF_AI_REGISTER_RETRIES);
  });

  it('never retries another refusal, and never waits longer than the bound', async () => {
    const invalid = jest.fn(async () => {
      throw new ApiError(422, { code: 'INVALID_IMAGE', message: 'Unreadable' });
    });
    const wait = jest.fn(async () => undefined);
    await expect(registerWithRetries(invalid, { wait })).rejects.toMatchObject({ code: 'INVALID_IMAGE' });
    expect(invalid).toHaveBeenCalledTimes(1);
    expect(wait).not.toHaveBeenCalled();

    const slow = scriptedFetch([
      [503, BUSY, { 'retry-after': '3600' }],
      [201, PHOTO],
    ]);
    await registerWithRetries(() => registerSelfAiPhoto('/u', { ofSelf: true, adult: true }, slow), { wait });
    expect(wait).toHaveBeenCalledWith(SELF_AI_MAX_RETRY_WAIT_SECONDS * 1000);
  });
});
