// `npm run client:generate`, step one: writes the served OpenAPI document to packages/client
// (step two, in the package, turns it into TypeScript types with openapi-typescript).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openPglite } from '../src/db/database.js';
import { CLIENT_DOCUMENT, CLIENT_DOCUMENT_ENV, servedDocument } from '../src/platform/openapi-document.js';
import { projectRoot } from '../src/platform/paths.js';

const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', ...CLIENT_DOCUMENT_ENV });
const database = await openPglite('memory');
const app = await buildApp({ config: { ...config, inProcessWorkers: false }, database });
await app.ready();
writeFileSync(join(projectRoot, CLIENT_DOCUMENT), await servedDocument(app));
await app.close();
await database.close();
console.log(`wrote ${CLIENT_DOCUMENT}`);
