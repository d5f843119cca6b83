import { readFileSync } from 'node:fs';
import path from 'node:path';
import { trustedDocuments } from './trusted-documents';

// Loading every generated document and printing each with Apollo's transforms takes seconds on a busy two-core machine.
jest.setTimeout(30_000);

/** The gateway serves the app's documents by hash only if the checked-in manifest matches the documents. */
describe('trusted documents', () => {
  it('are up to date with the generated documents (npm run codegen writes them)', async () => {
    const checkedIn = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'public', 'trusted-documents.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(checkedIn).toEqual(await trustedDocuments());
  });

  it('key each document by the SHA-256 of the text Apollo Client sends, __typename included', async () => {
    const manifest = await trustedDocuments();
    const [hash, text] = Object.entries(manifest).find(([, document]) => document.startsWith('query Me'))!;
    expect(text).toContain('__typename');
    const { createHash } = await import('node:crypto');
    expect(hash).toBe(createHash('sha256').update(text).digest('hex'));
  });
});
