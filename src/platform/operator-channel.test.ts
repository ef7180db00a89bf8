import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forward, operatorSocketPath, serveOperatorChannel } from './operator-channel.js';

describe('operator channel', () => {
  it('runs a forwarded command in the serving process and streams its output and exit code', async () => {
    const path = operatorSocketPath(join(mkdtempSync(join(tmpdir(), 'itinera-op-')), 'pglite'));
    const seen: [string, string[]][] = [];
    const server = await serveOperatorChannel(path, async (command, argv, io) => {
      seen.push([command, argv]);
      io.out(`ran ${command}`);
      io.err('a warning');
      return 3;
    });
    try {
      const out: string[] = [];
      const err: string[] = [];
      const code = await forward(
        path,
        'token:create',
        ['ops', '--ability', 'internal:read'],
        (l) => out.push(l),
        (l) => err.push(l),
      );
      expect(code).toBe(3);
      expect(out).toEqual(['ran token:create']);
      expect(err).toEqual(['a warning']);
      expect(seen).toEqual([['token:create', ['ops', '--ability', 'internal:read']]]);
      expect(
        await forward(
          path,
          '__ping',
          [],
          () => {},
          () => {},
        ),
      ).toBe(0);
    } finally {
      server.close();
    }
  });

  it('answers null when no server listens, and replaces a stale socket file', async () => {
    const path = operatorSocketPath(join(mkdtempSync(join(tmpdir(), 'itinera-op-')), 'pglite'));
    expect(
      await forward(
        path,
        'migrate',
        [],
        () => {},
        () => {},
      ),
    ).toBeNull();
    writeFileSync(path, ''); // left behind by a process that died
    expect(
      await forward(
        path,
        'migrate',
        [],
        () => {},
        () => {},
      ),
    ).toBeNull();
    const server = await serveOperatorChannel(path, async () => 0);
    try {
      expect(
        await forward(
          path,
          'migrate',
          [],
          () => {},
          () => {},
        ),
      ).toBe(0);
    } finally {
      server.close();
    }
  });
});
