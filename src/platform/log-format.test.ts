// LOG_FORMAT=pretty (development's default): one readable line per request instead of two JSON
// lines; json (every other APP_ENV's default) keeps Fastify's incoming/completed pair.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_NOW, testConfig } from '../../test/support/app.js';
import { createTestDatabase } from '../../test/support/db.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { fixedClock } from './clock.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function requestLog(env: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp({
    config: testConfig({ LOG_LEVEL: 'info', ...env }),
    database,
    clock: fixedClock(TEST_NOW),
    logStream,
  });
  try {
    await app.ready();
    lines.length = 0; // boot lines
    await app.inject({ method: 'GET', url: '/livez?probe=1' });
    return lines;
  } finally {
    await app.close();
  }
}

describe('request logs', () => {
  it('pretty: one line per request with method, URL, status and time', async () => {
    const lines = await requestLog({ LOG_FORMAT: 'pretty' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/livez\?probe=1 200 \d+ ms$/);
  });

  it('json: the two JSON lines of Fastify (incoming, completed)', async () => {
    const lines = await requestLog({ LOG_FORMAT: 'json' });
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['incoming request', 'request completed']);
  });

  it('defaults to pretty in development only, and refuses an unknown format', () => {
    expect(loadConfig({ APP_ENV: 'development' }).logFormat).toBe('pretty');
    expect(loadConfig({ APP_ENV: 'test' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be pretty or json, got "xml"');
  });
});
