// `.env` is read at start when present; variables set in the environment win.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { loadEnvFileIfPresent } from './env-file.js';

const names = ['ITINERA_T_FROM_FILE', 'ITINERA_T_BOTH', 'FRONTEND_URL', 'CORS_ORIGINS'];
const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
afterEach(() => {
  for (const n of names) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

describe('.env loading', () => {
  it('fills in unset variables from the file and leaves set ones alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'itinera-env-'));
    const file = join(dir, '.env');
    writeFileSync(
      file,
      '# comment\nITINERA_T_FROM_FILE=from file\nITINERA_T_BOTH=file\nFRONTEND_URL="https://shop.example.com"\n',
    );
    delete process.env.ITINERA_T_FROM_FILE;
    delete process.env.FRONTEND_URL;
    delete process.env.CORS_ORIGINS;
    process.env.ITINERA_T_BOTH = 'environment';
    expect(loadEnvFileIfPresent(file)).toBe(true);
    expect(process.env.ITINERA_T_FROM_FILE).toBe('from file');
    expect(process.env.ITINERA_T_BOTH).toBe('environment');
    // and the configuration sees it
    expect(loadConfig().corsOrigins).toEqual(['https://shop.example.com']);
  });

  it('does nothing without a file', () => {
    expect(loadEnvFileIfPresent(join(tmpdir(), 'no-such-dir-itinera', '.env'))).toBe(false);
  });
});
