// Bundles src/main.ts into dist/main.js for the long-running processes (`npm start`, `npm run worker`).
// Running the bundle with plain node instead of through tsx saves about 85 MB of RSS (tsx keeps a
// loader thread and the transformed sources), and esbuild takes well under a second, so `prestart`
// simply rebuilds every time. Packages stay external: node_modules is loaded as installed.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
