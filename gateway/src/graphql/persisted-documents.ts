import fs from 'node:fs';
import path from 'node:path';
import { type KeyValueCache, InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import { logger } from '@app/kit';

/** Where the web build puts its trusted documents: SHA-256 (hex) → document, as Apollo Client's persisted-query link hashes them. */
export const TRUSTED_DOCUMENTS_FILE = 'trusted-documents.json';

/** The prefix Apollo Server puts before every persisted-query key it reads or writes. */
const APQ_PREFIX = 'apq:';

/** Documents registered by clients through APQ: about 10 MB of text at most, least recently used out first. */
const APQ_MAX_BYTES = 10 * 1024 * 1024;

/** The web app's documents, read once from its build; none when the build has no manifest. */
export function loadTrustedDocuments(webDist: string): Map<string, string> {
  const file = path.join(webDist, TRUSTED_DOCUMENTS_FILE);
  if (!fs.existsSync(file)) return new Map();
  try {
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    return new Map(Object.entries(manifest).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch (error) {
    logger.warn({ err: error, file }, 'the trusted documents could not be read; the web app will send full queries');
    return new Map();
  }
}

/**
 * Apollo Server's persisted-query store: the web app's trusted documents always answer their hash, so the
 * web sends hashes only; other clients may register theirs (automatic persisted queries) when APQ is on.
 * With APQ off, an unknown hash is answered PERSISTED_QUERY_NOT_FOUND and the full query runs without
 * being remembered.
 */
export class PersistedDocumentStore implements KeyValueCache<string> {
  private readonly registered = new InMemoryLRUCache<string>({ maxSize: APQ_MAX_BYTES });

  constructor(
    private readonly trusted: ReadonlyMap<string, string>,
    private readonly apqEnabled: boolean,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const hash = key.startsWith(APQ_PREFIX) ? key.slice(APQ_PREFIX.length) : key;
    return this.trusted.get(hash) ?? (this.apqEnabled ? this.registered.get(key) : undefined);
  }

  async set(key: string, value: string): Promise<void> {
    if (this.apqEnabled) await this.registered.set(key, value);
  }

  async delete(key: string): Promise<boolean> {
    return this.registered.delete(key);
  }
}
