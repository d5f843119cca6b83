import { createUploadSigner, finishedUploadOf, SELF_AI_RESTRICTIONS } from './self-ai-upload';

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
