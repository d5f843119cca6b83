import { AppError } from '@app/schema';
import { parse } from 'graphql';
import { buildGatewaySchema } from '../graphql/schema';
import { LiveHub } from '../live-hub';
import { CLOSED_TO_TOKENS, FIELD_SCOPES, assertOperationAllowed, assertRequestAllowed } from './token-scopes';

const refusal = (run: () => void) => {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof AppError ? `${error.code}: ${error.message}` : String(error);
  }
};

describe('access token scopes', () => {
  it('places every root field of the schema: open to a scope, or closed to tokens', () => {
    const schema = buildGatewaySchema(new LiveHub());
    const roots = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() };
    const closed = new Set<string>(CLOSED_TO_TOKENS);
    for (const [kind, type] of Object.entries(roots) as [keyof typeof FIELD_SCOPES, (typeof roots)['query']][]) {
      const unplaced = Object.keys(type!.getFields()).filter((field) => !FIELD_SCOPES[kind][field] && !closed.has(field));
      expect({ kind, unplaced }).toEqual({ kind, unplaced: [] });
    }
  });

  it('lets a browser session through, and holds a token to its scopes by root field', () => {
    const document = parse('mutation { sendMessage(conversationId: "c", content: "hi") { userMessage { id } } }');
    expect(refusal(() => assertOperationAllowed(document, undefined, null))).toBeNull();
    expect(refusal(() => assertOperationAllowed(document, undefined, ['read', 'chat']))).toBeNull();
    expect(refusal(() => assertOperationAllowed(document, undefined, ['read']))).toBe(
      'FORBIDDEN: This access token lacks the chat scope that sendMessage needs.',
    );
    expect(refusal(() => assertOperationAllowed(parse('{ __typename me { id } }'), undefined, ['read']))).toBeNull();
  });

  it('checks the operation that runs, fragments included, and survives a fragment cycle', () => {
    const document = parse(`
      query Reader { me { id } }
      mutation Writer { ...A }
      fragment A on Mutation { ...B }
      fragment B on Mutation { ...A login(input: { email: "a@b.c", password: "x" }) { user { id } } }`);
    expect(refusal(() => assertOperationAllowed(document, 'Reader', ['read']))).toBeNull();
    expect(refusal(() => assertOperationAllowed(document, 'Writer', ['read', 'chat', 'generate']))).toBe(
      'FORBIDDEN: Access tokens cannot use login; sign in to the site for it.',
    );
  });

  it('maps /api requests: reads need read, writes their area, the rest is closed', () => {
    expect(refusal(() => assertRequestAllowed('GET', '/conversations', ['read']))).toBeNull();
    expect(refusal(() => assertRequestAllowed('POST', '/chat/abc', ['chat']))).toBeNull();
    expect(refusal(() => assertRequestAllowed('DELETE', '/images/abc', ['generate']))).toBeNull();
    expect(refusal(() => assertRequestAllowed('POST', '/characters', ['read', 'generate']))).toBe(
      'FORBIDDEN: This access token lacks the chat scope that POST /api/characters needs.',
    );
    expect(refusal(() => assertRequestAllowed('GET', '/moderation/images/x/file', ['read']))).toMatch(
      /^FORBIDDEN: Access tokens cannot use/,
    );
    expect(refusal(() => assertRequestAllowed('POST', '/reports', ['read', 'chat', 'generate']))).toMatch(
      /^FORBIDDEN: Access tokens cannot/,
    );
    // A path that only starts like an open one is not open.
    expect(refusal(() => assertRequestAllowed('POST', '/chatter', ['chat']))).toMatch(/^FORBIDDEN: Access tokens cannot/);
  });
});
