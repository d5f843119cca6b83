import { AppError } from '@app/schema';
import { type GraphQLFormattedError, GraphQLError, type ValidationContext, type ASTVisitor, Kind, type ASTNode } from 'graphql';
import { logger } from '@app/kit';

/** Maps errors once: AppError codes become `extensions.code`; anything unexpected is logged and hidden. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof AppError) {
    return {
      message: original.message,
      path: formatted.path,
      extensions: { code: original.code, ...(original.details ?? {}) },
    };
  }
  const code = formatted.extensions?.code;
  if (original && !(original instanceof GraphQLError) && (code === undefined || code === 'INTERNAL_SERVER_ERROR')) {
    logger.error({ err: original, path: formatted.path }, 'resolver crashed');
    return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL' } };
  }
  return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: code ?? 'BAD_REQUEST' } };
}

/** Rejects queries nested deeper than `maxDepth` (fragments included) before they run. */
export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map(
      context
        .getDocument()
        .definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    const measure = (node: ASTNode, depth: number, seen: Set<string>): number => {
      if (depth > maxDepth) return depth;
      if (node.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(node.name.value);
        if (!fragment || seen.has(node.name.value)) return depth;
        return measure(fragment, depth, new Set([...seen, node.name.value]));
      }
      if (!('selectionSet' in node) || !node.selectionSet) return depth;
      const next = node.kind === Kind.FIELD ? depth + 1 : depth;
      return Math.max(next, ...node.selectionSet.selections.map((selection) => measure(selection, next, seen)));
    };
    return {
      OperationDefinition(node) {
        const depth = measure(node, 0, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`Query is nested too deeply (${depth} levels; the limit is ${maxDepth}).`, { nodes: [node] }),
          );
        }
      },
    };
  };
}
