import type { ErrorCode } from '@app/schema';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';

/** Codes the GraphQL layer itself gives, before or around the services (Apollo's and the query limits'). */
export const GRAPHQL_ERROR_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'QUERY_TOO_COMPLEX',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'BAD_REQUEST',
] as const;
export type GraphQLErrorCode = (typeof GRAPHQL_ERROR_CODES)[number];

/** What each code means to a client; typed against the contract, so a code added there must be documented here. */
const MEANINGS: Record<ErrorCode | GraphQLErrorCode, string> = {
  UNAUTHENTICATED: 'No valid session or access token; sign in or send `Authorization: Bearer <token>` (HTTP 401).',
  FORBIDDEN: "Signed in, but the role, or the access token's scopes, do not allow this (403).",
  NOT_FOUND: 'No such item, or not one the caller may see (404).',
  VALIDATION_FAILED: 'The input is wrong; `fieldErrors` names each field and what is wrong with it (400).',
  EMAIL_TAKEN: 'An account with this e-mail exists (409).',
  INVALID_CREDENTIALS: 'The e-mail or password is wrong (401).',
  UNDERAGE: 'The date of birth is under 18 (400).',
  TERMS_NOT_ACCEPTED: 'The terms must be accepted to sign up (400).',
  RATE_LIMITED: 'Too many requests; wait `retryAfterSeconds` (also the `Retry-After` header) (429).',
  INSUFFICIENT_TOKENS: 'The token balance is too low for this; `renewsAt` says when the monthly free tokens arrive (402).',
  QUOTA_EXCEEDED: "This month's plan allowance is used up; `quota` says which, `renewsAt` when it renews (429).",
  CONFLICT: 'The item changed or is busy (a reply still being written, a name in use); reload and retry (409).',
  CONTENT_REJECTED: 'The content policy refused the text or picture; `policyCategory` says which rule (422).',
  ACCOUNT_SUSPENDED: 'The account is suspended (403).',
  PAYLOAD_TOO_LARGE: 'The request body is too large (413).',
  UNSUPPORTED_MEDIA_TYPE: 'The body is not in a type or encoding the API takes (415).',
  INVALID_IMAGE: 'The file is not a JPG or PNG picture the server can read, or has too many pixels (422).',
  UNAVAILABLE: 'A service or provider is down or overloaded; retry after `retryAfterSeconds` (503).',
  TIMEOUT: 'The operation ran out of time; it may still complete (504).',
  INTERNAL: 'An unexpected fault on the server, logged with the request id (500).',
  GRAPHQL_PARSE_FAILED: 'The document is not valid GraphQL, or too large or deep to parse.',
  GRAPHQL_VALIDATION_FAILED: 'The document does not match the schema.',
  QUERY_TOO_COMPLEX: 'The document asks for too much: depth, aliases, directives, tokens or cost over the limits.',
  BAD_USER_INPUT: "A variable's value does not fit its type.",
  OPERATION_RESOLUTION_FAILURE: 'The operation named in `operationName` is not in the document.',
  PERSISTED_QUERY_NOT_FOUND: 'Automatic persisted queries: send the full document with its hash once.',
  PERSISTED_QUERY_NOT_SUPPORTED: 'Automatic persisted queries are turned off on this server.',
  BAD_REQUEST: 'The HTTP request is not a GraphQL request the server can read.',
};

/** Every code `extensions.code` can hold. */
export const ALL_ERROR_CODES = Object.keys(MEANINGS) as (ErrorCode | GraphQLErrorCode)[];

/** The codes as an enum object (each value its own name), as type-graphql registers enums. */
const ErrorCodeType = Object.fromEntries(ALL_ERROR_CODES.map((code) => [code, code]));

registerEnumType(ErrorCodeType, {
  name: 'ErrorCode',
  description: 'The `extensions.code` of every error in a response: branch on it, not on the message (which may be reworded).',
  valuesConfig: Object.fromEntries(ALL_ERROR_CODES.map((code) => [code, { description: MEANINGS[code] }])),
});

/** Documents the shape of each error's `extensions` in the SDL (no field returns it). */
@ObjectType('ErrorExtensions', { description: 'The `extensions` of every error in `errors`.' })
export class ErrorExtensionsType {
  @Field(() => ErrorCodeType) code!: string;
  @Field(() => Int, { nullable: true, description: 'RATE_LIMITED, UNAVAILABLE: seconds to wait before retrying.' })
  retryAfterSeconds?: number;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'VALIDATION_FAILED: field name → what is wrong with it.' })
  fieldErrors?: Record<string, string>;
  @Field(() => String, {
    nullable: true,
    description:
      'CONTENT_REJECTED: which rule refused it: minors, non_consent, real_person, blocked_hash (a picture moderators removed), or unavailable (it could not be checked now).',
  })
  policyCategory?: string;
  @Field(() => String, {
    nullable: true,
    description: 'INSUFFICIENT_TOKENS, QUOTA_EXCEEDED: when the monthly free tokens and allowances renew (ISO date-time).',
  })
  renewsAt?: string;
  @Field(() => String, { nullable: true, description: 'QUOTA_EXCEEDED: the allowance used up: image, chat, character or story.' })
  quota?: string;
}
