import fs from 'node:fs';
import path from 'node:path';
import { printGatewaySchema } from './graphql/schema';

/** Writes schema/schema.graphql, the contract third-party clients and the web's codegen read. */
const target = path.join(__dirname, '..', '..', 'schema', 'schema.graphql');
fs.writeFileSync(target, printGatewaySchema());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
