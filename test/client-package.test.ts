// packages/client as its users get it: the built dist/ (JavaScript and declarations), imported by
// plain node with no loader and bundled for a browser by esbuild. The root's tests import this
// same build (test/global-setup.ts and `npm test` build it when stale).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/platform/paths.js';

const run = promisify(execFile);
const pkgDir = join(projectRoot, 'packages', 'client');

describe('the @itinera/client package', () => {
  it('points its exports at built JavaScript with type declarations', () => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.exports['.']).toEqual({
      types: './dist/index.d.ts',
      import: './dist/index.js',
      default: './dist/index.js',
    });
    const declarations = readFileSync(join(pkgDir, 'dist', 'index.d.ts'), 'utf8');
    expect(declarations).toContain('export declare function createItineraClient');
    expect(declarations).toContain('carryCheckoutSession');
  });

  it('imports from plain node, without a TypeScript loader', async () => {
    const script =
      "import { createItineraClient, carryCheckoutSession } from '@itinera/client';" +
      "const c = createItineraClient({ baseUrl: 'http://127.0.0.1:9' });" +
      "console.log(typeof c.GET, typeof c.use, carryCheckoutSession('tok').token);";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot });
    expect(stdout.trim()).toBe('function function tok');
  });

  it('bundles for a browser (esbuild), with nothing from node', async () => {
    const out = await build({
      stdin: {
        contents: "import { createItineraClient } from '@itinera/client'; export const api = createItineraClient();",
        resolveDir: projectRoot,
        loader: 'js',
      },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(out.errors).toEqual([]);
    const code = out.outputFiles[0].text;
    expect(code).toContain('credentials: "include"');
    expect(code).not.toMatch(/from "node:|require\("node:/);
  });
});
