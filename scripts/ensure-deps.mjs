// Installs dependencies when node_modules is missing or older than package-lock.json,
// so `npm start` and `npm test` are the whole set-up on a fresh clone.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
if (stale) {
  console.log('[itinera] installing dependencies (npm ci)...');
  execSync(existsSync(lock) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund', { stdio: 'inherit' });
}
