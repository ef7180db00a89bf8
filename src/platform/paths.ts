// Files the service reads at run time (SQL migrations, demo data) are found from the project root,
// so the same code works from src/ under tsx and from the bundle in dist/ (see scripts/build.mjs).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

/** The directory holding itinera's package.json. */
export const projectRoot = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project, e.g. projectPath('data', 'demo'). */
export function projectPath(...parts: string[]): string {
  return join(projectRoot, ...parts);
}
