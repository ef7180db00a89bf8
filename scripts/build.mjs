// Bundles src/main.ts into dist/main.js for the long-running processes (`npm start`, `npm run worker`).
// Running the bundle with plain node instead of through tsx saves about 85 MB of RSS (tsx keeps a
// loader thread and the transformed sources), and esbuild takes well under a second, so `prestart`
// simply rebuilds every time. Packages stay external: node_modules is loaded as installed.
// The files are written under a temporary name and renamed into place: a process starting from
// dist/main.js while another build runs (npm start next to a running server, parallel tests) reads
// the old bundle or the new one, never a half-written file.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  write: false,
});
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
}
