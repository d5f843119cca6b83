import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
  parse,
  specifiedRules,
  validate,
} from 'graphql';

/**
 * What one GraphQL document may ask for, checked before anything runs and the same over HTTP and
 * WebSocket. Every rule is linear in the document (graphql-armor memoises fragments). The web
 * client's own operations stay well inside these (a test checks each one).
 */
export const QUERY_LIMITS = {
  /** Field nesting, fragments included; the deepest web query is 6. */
  maxDepth: 12,
  /** Aliases per document: stops one request from becoming hundreds of service calls or writes. */
  maxAliases: 15,
  /**
   * graphql-armor's cost (objects 2, scalars 1, ×1.5 per level, × literal `first`/`last`): a full 100-item page
   * of images with every field costs about 6,500, 15 such aliases far more.
   */
  maxCost: 20_000,
  /** Lexical tokens per document: parsing itself stays small (a 100 KB body has room for ~25k). */
  maxTokens: 2000,
  /** Directives per document. */
  maxDirectives: 50,
} as const;

export type QueryLimits = typeof QUERY_LIMITS;

export const GRAPHQL_PARSE_OPTIONS: ParseOptions = { maxTokens: QUERY_LIMITS.maxTokens };

/** graphql-armor prefixes its messages with "Syntax Error:"; the client gets a plain sentence and a code. */
const reportLimit = (context: ValidationContext | null, error: GraphQLError): void => {
  const message = error.message.replace(/^Syntax Error: /, '');
  context?.reportError(new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX' } }));
};

/** The armor rules in validation-rule form, reporting instead of throwing so every limit hit is a 400. */
export function queryLimitRules(limits: QueryLimits = QUERY_LIMITS): ValidationRule[] {
  // Introspection counts too: `__Type.fields { type { fields … } }` nests as deep as it is asked to.
  const reject = { propagateOnRejection: false, onReject: [reportLimit], exposeLimits: true, ignoreIntrospection: false };
  return [
    maxDepthRule({ n: limits.maxDepth, ...reject }),
    maxAliasesRule({ n: limits.maxAliases, ...reject }),
    costLimitRule({ maxCost: limits.maxCost, ...reject }),
    maxDirectivesRule({ n: limits.maxDirectives, ...reject }),
  ];
}

/**
 * Parses and validates one document the way Apollo does over HTTP (graphql-js's rules plus the
 * limits), for transports that hand us a raw document: graphql-ws subscriptions.
 */
export function parseAndValidate(
  schema: GraphQLSchema,
  source: string,
  limits: QueryLimits = QUERY_LIMITS,
): { document: DocumentNode; errors?: never } | { errors: readonly GraphQLError[]; document?: never } {
  const cache = limits === QUERY_LIMITS ? validDocuments(schema) : null;
  const known = cache?.get(source);
  if (known) {
    // Most recently used last, so eviction takes the least recently used.
    cache!.delete(source);
    cache!.set(source, known);
    return { document: known };
  }
  const checked = parseAndValidateUncached(schema, source, limits);
  if (cache && checked.document) {
    cache.set(source, checked.document);
    if (cache.size > VALID_DOCUMENTS_KEPT) cache.delete(cache.keys().next().value!);
  }
  return checked;
}

/**
 * Valid documents by source, per schema: 10,000 sockets subscribe with the web's few documents, so each is parsed and
 * validated once instead of once per socket (a document AST is never mutated by execution, so sharing it is safe).
 * Only valid documents are kept, and at most this many, so varied or invalid input cannot grow it.
 */
const VALID_DOCUMENTS_KEPT = 500;
const documentsBySchema = new WeakMap<GraphQLSchema, Map<string, DocumentNode>>();

function validDocuments(schema: GraphQLSchema): Map<string, DocumentNode> {
  let cache = documentsBySchema.get(schema);
  if (!cache) documentsBySchema.set(schema, (cache = new Map()));
  return cache;
}

function parseAndValidateUncached(
  schema: GraphQLSchema,
  source: string,
  limits: QueryLimits,
): { document: DocumentNode; errors?: never } | { errors: readonly GraphQLError[]; document?: never } {
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: limits.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [withCode(error, 'GRAPHQL_PARSE_FAILED')] };
    throw error;
  }
  const errors = validate(schema, document, [...specifiedRules, ...queryLimitRules(limits)]);
  if (errors.length > 0) return { errors: errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED')) };
  return { document };
}

/** Keeps a code a rule already set (QUERY_TOO_COMPLEX), otherwise tags the error as Apollo does. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code) return error;
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code } });
}
