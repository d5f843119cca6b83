import { type DocumentNode, Kind, getIntrospectionQuery, parse, print, validate } from 'graphql';
import * as webOperations from '../../../web/src/gql/graphql';
import { aliasBomb, fragmentChain } from '../../test/abusive-documents';
import { LiveHub } from '../live-hub';
import { QUERY_LIMITS, type QueryLimits, parseAndValidate, queryLimitRules } from './query-limits';
import { buildGatewaySchema } from './schema';

const schema = buildGatewaySchema(new LiveHub());

const limitErrors = (source: string) => validate(schema, parse(source), queryLimitRules());

describe('GraphQL document limits', () => {
  const documents = Object.entries(webOperations).filter(
    (entry): entry is [string, DocumentNode] =>
      (entry[1] as DocumentNode | undefined)?.definitions?.some((definition) => definition.kind === Kind.OPERATION_DEFINITION) === true,
  );

  it('let every operation the web client sends through, over either transport', () => {
    expect(documents.length).toBeGreaterThan(20);
    for (const [name, document] of documents) {
      expect([name, parseAndValidate(schema, print(document)).errors ?? []]).toEqual([name, []]);
    }
  });

  it('let a third party ask for the largest page with every field, and not fifteen of them', () => {
    const image =
      'id imageUrl prompt model isPublic likes likedByMe createdAt width height placeholder srcSet isDemo settings { size quality style }';
    const page = `publicImages(first: 100) { edges { cursor node { ${image} } } pageInfo { hasNextPage hasPreviousPage endCursor } }`;
    expect(limitErrors(`{ ${page} }`)).toEqual([]);
    const fifteen = Array.from({ length: 15 }, (_, i) => `p${i}: ${page}`).join(' ');
    expect(limitErrors(`{ ${fifteen} }`).map((error) => error.message)).toEqual([
      expect.stringMatching(/^Query Cost limit of 20000 exceeded/),
    ]);
  });

  it('refuse a chain of 60 doubling fragments with a plain message and a code', () => {
    const errors = limitErrors(fragmentChain(60));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.message).toMatch(/^Query depth limit of 12 exceeded/);
    expect(errors[0]!.extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('refuse more aliases than the limit (one request must not become a thousand service calls)', () => {
    const errors = limitErrors(aliasBomb(1000));
    expect(errors.map((error) => error.message)).toContain(`Aliases limit of ${QUERY_LIMITS.maxAliases} exceeded, found 1000.`);
    const writes = Array.from({ length: 100 }, (_, i) => `c${i}: createConversation(input: {}) { id }`).join(' ');
    expect(limitErrors(`mutation { ${writes} }`).map((error) => error.extensions.code)).toContain('QUERY_TOO_COMPLEX');
  });

  it('refuse documents past the token limit before validating them', () => {
    const big = `{ ${Array.from({ length: QUERY_LIMITS.maxTokens }, () => '__typename').join(' ')} }`;
    const result = parseAndValidate(schema, big);
    expect(result.errors?.[0]?.message).toMatch(/Document contains more that 2000 tokens/);
    expect(result.errors?.[0]?.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('refuse too many directives and deeply nested introspection', () => {
    const directives = Array.from({ length: QUERY_LIMITS.maxDirectives + 1 }, () => '@include(if: true)').join(' ');
    expect(limitErrors(`{ me ${directives} { id } }`).map((error) => error.message)).toContain(
      `Directives limit of ${QUERY_LIMITS.maxDirectives} exceeded, found ${QUERY_LIMITS.maxDirectives + 1}.`,
    );
    const bomb = `{ __schema { types { ${'fields { type { '.repeat(6)}name${' } }'.repeat(6)} } } }`;
    expect(limitErrors(bomb).length).toBeGreaterThan(0);
    expect(limitErrors(getIntrospectionQuery()).length).toBeGreaterThan(0);
  });

  it('check a repeated document once and share it, and never keep an invalid one', () => {
    const source = `subscription Balance${Date.now()} { tokenBalanceChanged { balance } }`;
    const first = parseAndValidate(schema, source);
    expect(first.errors).toBeUndefined();
    expect(parseAndValidate(schema, source).document).toBe(first.document);
    const invalid = `{ missing${Date.now()} }`;
    expect(parseAndValidate(schema, invalid).errors).toHaveLength(1);
    expect(parseAndValidate(schema, invalid).errors).toHaveLength(1);
    // Stricter limits are not answered from documents checked against the defaults.
    expect(parseAndValidate(schema, source, { ...QUERY_LIMITS, maxDepth: 1 } as unknown as QueryLimits).errors?.[0]?.extensions.code).toBe(
      'QUERY_TOO_COMPLEX',
    );
  });

  it('report graphql-js validation errors with a code, as Apollo does over HTTP', () => {
    const result = parseAndValidate(schema, '{ noSuchField }');
    expect(result.errors?.[0]?.message).toBe('Cannot query field "noSuchField" on type "Query".');
    expect(result.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
