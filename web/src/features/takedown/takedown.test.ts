import {
  EMPTY_TAKEDOWN_FORM,
  placeServerFieldErrors,
  submitTakedown,
  TAKEDOWN_PATH,
  toTakedownRequest,
  validateTakedown,
  type TakedownForm,
} from './takedown';

const INTIMATE: TakedownForm = {
  ...EMPTY_TAKEDOWN_FORM,
  kind: 'intimate_image',
  content: '  https://example.com/gallery?image=1  ',
  statement: 'This is me and I never agreed to it.',
  requester: 'depicted_person',
  name: 'Jo Doe',
  email: 'jo@example.com',
  signature: 'Jo Doe',
  goodFaith: true,
};

describe('validateTakedown', () => {
  it('asks for the kind and every common field first', () => {
    expect(Object.keys(validateTakedown(EMPTY_TAKEDOWN_FORM)).sort()).toEqual(
      ['kind', 'content', 'statement', 'name', 'email', 'signature', 'goodFaith'].sort(),
    );
  });

  it('needs the requester for an intimate image, the work and the authority for rights', () => {
    expect(validateTakedown(INTIMATE)).toEqual({});
    expect(validateTakedown({ ...INTIMATE, requester: '' })).toEqual({ requester: expect.any(String) });
    const rights = { ...INTIMATE, kind: 'rights' as const, requester: '' as const };
    expect(Object.keys(validateTakedown(rights)).sort()).toEqual(['authorised', 'work']);
    expect(validateTakedown({ ...rights, work: 'My photo series', authorised: true })).toEqual({});
  });

  it('explains each problem in words', () => {
    const errors = validateTakedown({ ...INTIMATE, email: 'not-an-address', goodFaith: false });
    expect(errors.email).toBe('Please enter a valid email address');
    expect(errors.goodFaith).toMatch(/good-faith/);
  });
});

describe('toTakedownRequest', () => {
  it('trims the texts and sends only the chosen kind’s fields', () => {
    expect(toTakedownRequest({ ...INTIMATE, work: 'left over', authorised: true })).toEqual({
      kind: 'intimate_image',
      content: 'https://example.com/gallery?image=1',
      statement: 'This is me and I never agreed to it.',
      requester: 'depicted_person',
      name: 'Jo Doe',
      email: 'jo@example.com',
      signature: 'Jo Doe',
      goodFaith: true,
    });
    const rights = toTakedownRequest({ ...INTIMATE, kind: 'rights', work: ' My song ', authorised: true });
    expect(rights).toMatchObject({ kind: 'rights', work: 'My song', authorised: true });
    expect(rights).not.toHaveProperty('requester');
  });
});

describe('placeServerFieldErrors', () => {
  it('puts known fields under their fields and keeps the first other one for the form', () => {
    expect(placeServerFieldErrors({ content: 'Not found', captcha: 'Try again', other: 'Later' })).toEqual({
      fieldErrors: { content: 'Not found' },
      unplaced: 'Try again',
    });
  });
});

describe('submitTakedown', () => {
  const receipt = {
    reference: 'TD-ABCDEF1234',
    removalDeadline: '2025-06-03T12:00:00.000Z',
    resolutionDeadline: '2025-06-10T12:00:00.000Z',
    items: 1,
  };

  it('posts JSON to the REST endpoint and answers the receipt', async () => {
    const impl = jest.fn(async () => new Response(JSON.stringify(receipt), { status: 201 }));
    await expect(submitTakedown(toTakedownRequest(INTIMATE), impl as unknown as typeof fetch)).resolves.toEqual(receipt);
    const [url, init] = impl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(TAKEDOWN_PATH);
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin' });
    expect(JSON.parse(String(init.body))).toMatchObject({ kind: 'intimate_image', goodFaith: true });
  });

  it('rejects with the server’s code and field errors', async () => {
    const refusal = { code: 'VALIDATION_FAILED', message: 'Invalid input', fieldErrors: { content: 'We could not find that content.' } };
    const impl = jest.fn(async () => new Response(JSON.stringify(refusal), { status: 400 }));
    await expect(submitTakedown(toTakedownRequest(INTIMATE), impl as unknown as typeof fetch)).rejects.toMatchObject({
      name: 'ApiError',
      code: 'VALIDATION_FAILED',
      fieldErrors: { content: 'We could not find that content.' },
    });
  });
});
