import { InMemoryCache } from '@apollo/client';
import { type DocumentNode, print } from 'graphql';
import * as generated from '../gql/graphql';
import { sha256Hex } from './sha256';

const isDocument = (value: unknown): value is DocumentNode =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Document';

/**
 * Every document of the app as Apollo Client sends it (the cache's transform adds __typename), keyed by the
 * hash its persisted-query link computes: the manifest of trusted documents the gateway serves by hash.
 */
export async function trustedDocuments(): Promise<Record<string, string>> {
  const cache = new InMemoryCache();
  const manifest: Record<string, string> = {};
  const documents = Object.entries(generated)
    .filter(([name, value]) => name.endsWith('Document') && isDocument(value))
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [, document] of documents) {
    const text = print(cache.transformDocument(document as DocumentNode));
    manifest[await sha256Hex(text)] = text;
  }
  return manifest;
}
