import { AppError, ERROR_CODES } from '@app/schema';
import { type GraphQLEnumType, GraphQLError, buildSchema } from 'graphql';
import fs from 'node:fs';
import path from 'node:path';
import { formatGraphQLError } from './errors';

const sdl = buildSchema(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'schema', 'schema.graphql'), 'utf8'));
const documented = new Set((sdl.getType('ErrorCode') as GraphQLEnumType).getValues().map((value) => value.name));

/** Clients branch on `extensions.code`: every code they can receive is in the published ErrorCode enum. */
describe('error codes in the schema', () => {
  it('documents every service error code, each with what it means', () => {
    for (const code of ERROR_CODES) expect(documented).toContain(code);
    const enumType = sdl.getType('ErrorCode') as GraphQLEnumType;
    expect(enumType.getValues().filter((value) => !value.description)).toEqual([]);
  });

  it('sends only documented codes, whatever raised the error', () => {
    const fromService = formatGraphQLError({ message: 'x' }, new AppError('QUOTA_EXCEEDED', 'Used up'));
    expect(fromService.extensions?.code).toBe('QUOTA_EXCEEDED');
    const apollo = formatGraphQLError({ message: 'bad', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, new GraphQLError('bad'));
    expect(apollo.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const unknown = formatGraphQLError({ message: 'odd', extensions: { code: 'SOMETHING_NEW' } }, new GraphQLError('odd'));
    expect(unknown.extensions?.code).toBe('BAD_REQUEST');
    expect(documented).toContain('QUERY_TOO_COMPLEX');
    expect(documented).toContain('GRAPHQL_PARSE_FAILED');
  });
});
