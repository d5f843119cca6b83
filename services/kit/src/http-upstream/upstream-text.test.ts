import { describeErrorBody, describeErrorObject, quoteUpstreamText, redactSecrets } from './upstream-text';

describe('redactSecrets', () => {
  it.each([
    ['the configured key', 'Invalid key my-own-key-value here', ['my-own-key-value'], 'Invalid key [redacted] here'],
    [
      'a basic-auth password and its encoding',
      'auth cGFpbnRlcjpodW50ZXIy for hunter2',
      ['cGFpbnRlcjpodW50ZXIy', 'hunter2'],
      'auth [redacted] for [redacted]',
    ],
    ['provider-shaped keys', 'keys sk-proj-abcdef123 or-v1-0123456789 gsk_abcdefghij', [], 'keys [redacted] [redacted] [redacted]'],
    ['bearer and basic credentials', 'sent Bearer abc.def.ghi and Basic dXNlcjpwYXNz', [], 'sent Bearer [redacted] and Basic [redacted]'],
    ['credentials in a URL', 'GET https://user:pa55@host.example/v1 failed', [], 'GET https://[redacted]@host.example/v1 failed'],
    [
      'secret query parameters, leaving the others',
      'see /files?X-Amz-Signature=f00d&size=3&access_token=t0k&sig=abc&api-key=k3y',
      [],
      'see /files?X-Amz-Signature=[redacted]&size=3&access_token=[redacted]&sig=[redacted]&api-key=[redacted]',
    ],
  ])('removes %s', (_name, text, secrets, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });

  it('leaves ordinary provider text alone, and ignores secrets too short to be real', () => {
    const text = "This model's maximum context length is 8192 tokens; design=compact";
    expect(redactSecrets(text, ['is'])).toBe(text);
  });
});

describe('quoteUpstreamText', () => {
  it('makes one line of at most 300 characters, counting characters rather than UTF-16 units', () => {
    expect(quoteUpstreamText('  CUDA out of memory.\n\tTried to allocate 2.00 GiB  ')).toBe(
      'CUDA out of memory. Tried to allocate 2.00 GiB',
    );
    const quoted = quoteUpstreamText('🎨'.repeat(400));
    expect([...quoted]).toHaveLength(300);
    expect(quoted.endsWith('🎨…')).toBe(true);
    expect(quoteUpstreamText(undefined)).toBe('');
  });
});

describe('describeErrorBody', () => {
  it.each([
    [
      'OpenAI',
      '{"error":{"message":"Bad prompt","type":"invalid_request_error","code":"invalid_value"}}',
      { message: 'Bad prompt', type: 'invalid_request_error', code: 'invalid_value' },
    ],
    ['Ollama', '{"error":"model \\"llama9\\" not found"}', { message: 'model "llama9" not found' }],
    ['vLLM', '{"object":"error","message":"Too long","code":400}', { message: 'Too long', code: '400' }],
    [
      'FastAPI',
      '{"detail":[{"loc":["body","width"],"msg":"not an integer"},{"loc":["body","steps"],"msg":"too big"}]}',
      { message: 'width: not an integer; steps: too big' },
    ],
    ['plain text', 'llama runner process has terminated', { message: 'llama runner process has terminated' }],
    ['an HTML page', '<!doctype html><title>Bad gateway</title>', {}],
    ['nothing', '   ', {}],
  ])('reads %s', (_name, raw, expected) => {
    expect(describeErrorBody(raw, 'application/json')).toEqual(expect.objectContaining(expected));
  });

  it('reads an error object sent inside a stream, or a bare string', () => {
    expect(describeErrorObject({ error: { message: 'Upstream model crashed', code: 502 } })).toMatchObject({
      message: 'Upstream model crashed',
      code: '502',
    });
    expect(describeErrorObject('Rate limit exceeded')).toEqual({ message: 'Rate limit exceeded' });
  });
});
