// Builds packages/client to dist/ (JavaScript and type declarations) with the package's own
// TypeScript; the root's tests and typecheck import the built package, as its users do.
// `--if-stale`: only when a source file or the package's build settings are newer than the build.
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const PKG = 'packages/client';
const OUT = join(PKG, 'dist', 'index.js');

function stale() {
  let built;
  try {
    built = statSync(OUT).mtimeMs;
  } catch {
    return true;
  }
  const sources = readdirSync(join(PKG, 'src')).map((f) => join(PKG, 'src', f));
  return [...sources, join(PKG, 'package.json'), join(PKG, 'tsconfig.build.json')].some(
    (f) => statSync(f).mtimeMs > built,
  );
}

if (!process.argv.includes('--if-stale') || stale()) {
  execSync('npm run build --silent --workspace @itinera/client', { stdio: 'inherit' });
}
