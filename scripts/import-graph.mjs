// The import rules of docs/architecture.md, checked on every `npm run lint` (so in CI):
//   1. no import circles between files (type-only imports count: they tie files together too);
//   2. no module imports another module's repository (its public surface is its service);
//   3. no two modules import each other both ways, beyond the pairs still listed in TWO_WAY below
//      (a ratchet: a new pair fails, and so does a listed pair that is gone, so the list shrinks);
//   4. no import climbs back up a floor (base < console < modules < entry points), except where
//      the line above it says why with a `// layer exception: <reason>` comment (at most 5).
// Longer loops of modules are printed with --report; they go as the pairs do.
// madge would do rule 1, but it reads TypeScript through TypeScript's JS API, which the native
// compiler we use (typescript 7) does not have; import statements are simple enough to read here.
// `node scripts/import-graph.mjs --report` prints the lists even when every rule holds.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');
const MAX_EXCEPTIONS = 5;
// pairs of modules that still import each other (issue 24): remove a line when its pair is undone
const TWO_WAY = new Set([
  'balance <-> bookings',
  'balance <-> payments',
  'bookings <-> catalog',
  'bookings <-> checkout',
  'bookings <-> flights',
  'bookings <-> payments',
  'catalog <-> content',
  'catalog <-> offer-generation',
  'checkout <-> flights',
  'crm <-> leads',
]);
const EXCEPTION = /\/\/\s*layer exception:\s*\S/;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// import/export statements and dynamic imports with a literal specifier, wherever they start a line
const STATIC = /^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file, text) {
  const found = [];
  for (const pattern of [STATIC, BARE, DYNAMIC]) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1];
      if (!specifier.startsWith('.')) continue;
      const line = text.slice(0, match.index).split('\n').length + (text[match.index] === '\n' ? 1 : 0);
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      found.push({ target, line });
    }
  }
  return found;
}

const rel = (file) => relative(root, file);
const moduleOf = (file) => /^src\/modules\/([^/]+)\//.exec(rel(file))?.[1];
const isTest = (file) => file.endsWith('.test.ts');

const FLOORS = ['base', 'console', 'modules', 'entry'];
function floorOf(file) {
  const path = rel(file);
  if (path.startsWith('src/console/')) return 1;
  if (path.startsWith('src/modules/')) return 2;
  if (/^src\/(app|main|jobs|tasks|tasks-command)\.ts$/.test(path)) return 3;
  return 0; // config.ts, context.ts, platform/, db/, import/
}

const files = filesUnder(src);
const known = new Set(files);
const lines = new Map(files.map((file) => [file, readFileSync(file, 'utf8').split('\n')]));
const graph = new Map(
  files.map((file) => [file, importsOf(file, lines.get(file).join('\n')).filter((i) => known.has(i.target))]),
);

// 1. circles: strongly connected components of the file graph (Tarjan)
function components(nodes, edgesOf) {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  function visit(node) {
    order.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of edgesOf(node)) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), order.get(next)));
      }
    }
    if (low.get(node) === order.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edgesOf(node).includes(node)) found.push(component);
    }
  }
  for (const node of nodes) if (!order.has(node)) visit(node);
  return found;
}

const circles = components(files, (file) => graph.get(file).map((i) => i.target));

// 2-4: non-test source only (tests may seed through another module's repository)
const reachIns = [];
const upward = [];
const exceptions = [];
const moduleEdges = new Map();
for (const [file, imports] of graph) {
  if (isTest(file)) continue;
  for (const { target, line } of imports) {
    const from = moduleOf(file);
    const to = moduleOf(target);
    const where = `${rel(file)}:${line} -> ${rel(target)}`;
    if (from && to && from !== to) {
      if (/(^|[-/])repository\.ts$/.test(target)) reachIns.push(where);
      if (!moduleEdges.has(from)) moduleEdges.set(from, new Map());
      const edges = moduleEdges.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(where);
    }
    if (floorOf(target) > floorOf(file)) {
      const above = lines.get(file).slice(Math.max(0, line - 4), line - 1);
      const reason = above.reverse().find((text) => EXCEPTION.test(text));
      if (reason)
        exceptions.push(`${where} (${FLOORS[floorOf(file)]} -> ${FLOORS[floorOf(target)]}): ${reason.trim()}`);
      else upward.push(`${where} (${FLOORS[floorOf(file)]} -> ${FLOORS[floorOf(target)]})`);
    }
  }
}

const modules = [...new Set(files.map(moduleOf).filter(Boolean))];
const moduleLoops = components(modules, (name) => [...(moduleEdges.get(name)?.keys() ?? [])]);
const pairs = [];
const listedPairs = [];
const seenPairs = new Set();
for (const [a, edges] of moduleEdges)
  for (const b of edges.keys())
    if (a < b && moduleEdges.get(b)?.has(a)) {
      const pair = `${a} <-> ${b}`;
      seenPairs.add(pair);
      const text = `${pair}\n    ${[...edges.get(b), ...moduleEdges.get(b).get(a)].join('\n    ')}`;
      (TWO_WAY.has(pair) ? listedPairs : pairs).push(text);
    }
const gonePairs = [...TWO_WAY].filter((pair) => !seenPairs.has(pair));

// what is only reported (with --report) does not fail the run
const ENFORCED = new Set(['circles', 'repositories', 'pairs', 'floors']);
const problems = [];
const notes = [];
const section = (rule, title, items) => {
  if (items.length)
    (ENFORCED.has(rule) ? problems : notes).push(`${title} (${items.length}):\n  ${items.join('\n  ')}`);
};
section(
  'circles',
  'import circles',
  circles.map((c) => c.map(rel).join(' -> ')),
);
section('repositories', "imports of another module's repository", reachIns);
section('pairs', 'new pairs of modules that import each other both ways', pairs);
section('pairs', 'pairs listed in TWO_WAY that no longer import each other (remove them from the list)', gonePairs);
section('listed', 'pairs still listed in TWO_WAY', listedPairs);
section(
  'loops',
  'loops of modules (each module reaches the next; the imports of one module into the next)',
  moduleLoops.map((loop) => {
    const members = new Set(loop);
    const links = loop.flatMap((a) => [...moduleEdges.get(a)].filter(([b]) => members.has(b)).map(([, w]) => w[0]));
    return `${loop.join(', ')}\n    ${links.join('\n    ')}`;
  }),
);
section('floors', 'imports that climb back up a floor without a `// layer exception:` comment', upward);
if (exceptions.length > MAX_EXCEPTIONS)
  (ENFORCED.has('floors') ? problems : notes).push(
    `more than ${MAX_EXCEPTIONS} layer exceptions (${exceptions.length}): move the code instead`,
  );

if (process.argv.includes('--report') || problems.length) {
  console.log(`${files.length} files, ${modules.length} modules; layer exceptions (${exceptions.length}):`);
  for (const line of exceptions) console.log(`  ${line}`);
  if (notes.length) console.log(`reported only:\n${notes.join('\n')}`);
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(
  `import graph: no circles, no repository reach-ins, no new two-way modules (${TWO_WAY.size} listed), ${exceptions.length} layer exception(s) (${files.length} files)`,
);
