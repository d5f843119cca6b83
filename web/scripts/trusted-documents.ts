/**
 * Writes public/trusted-documents.json: each of the web app's GraphQL documents under the SHA-256 (hex) of the
 * text Apollo Client sends for it (its cache's transform, e.g. __typename, then print), as the persisted-query
 * link hashes it. The gateway loads the file from the build (web/dist) so these hashes always answer.
 * Run by `npm run codegen` after the documents are generated; a unit test fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { trustedDocuments } from '../src/lib/trusted-documents';

const file = fileURLToPath(new URL('../public/trusted-documents.json', import.meta.url));
const manifest = await trustedDocuments();
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
process.stdout.write(`Wrote ${Object.keys(manifest).length} trusted documents to web/public/trusted-documents.json\n`);
