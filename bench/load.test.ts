import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseFramer, requestBytes, runLoad } from './load.js';

describe('ResponseFramer', () => {
  const big = 'x'.repeat(20_000);
  const stream = Buffer.from(
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big}` +
      'HTTP/1.1 304 Not Modified\r\ncontent-length: 0\r\n\r\n' +
      'HTTP/1.1 404 Not Found\r\nCONTENT-LENGTH: 2\r\n\r\n{}',
  );

  it('finds every response however the stream is cut into chunks', () => {
    for (const size of [1, 2, 7, 64, 1000, stream.length]) {
      const seen: number[] = [];
      const framer = new ResponseFramer((status) => seen.push(status));
      // each chunk arrives in the same buffer, as runLoad's reads do: what outlives a chunk is copied
      const scratch = Buffer.alloc(size);
      for (let i = 0; i < stream.length; i += size) {
        const n = stream.copy(scratch, 0, i, i + size);
        framer.push(scratch.subarray(0, n));
      }
      expect(seen, `chunks of ${size}`).toEqual([200, 304, 404]);
    }
  });

  it('refuses a response it cannot frame', () => {
    const framer = new ResponseFramer(() => {});
    expect(() => framer.push(Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n'))).toThrow(
      /Content-Length/,
    );
  });
});

describe('runLoad', () => {
  let server: Server;
  let base: string;
  const seen: IncomingHttpHeaders[] = [];
  const served = new Map<Socket, number>();
  const large = Buffer.alloc(100_000, 'b');
  let notFound = 0;
  beforeAll(async () => {
    const body = Buffer.alloc(14_000, 'a');
    server = createServer((req, res) => {
      if (seen.length < 5) seen.push(req.headers);
      if (req.url === '/missing') return res.writeHead(404, { 'content-length': 0 }).end();
      if (req.url === '/mixed') {
        // bodies longer than the 64 kB read buffer, a 404 every third response on each connection
        const n = (served.get(req.socket) ?? 0) + 1;
        served.set(req.socket, n);
        const status = n % 3 === 0 ? 404 : 200;
        if (status === 404) notFound += 1;
        return res.writeHead(status, { 'content-length': large.length }).end(large);
      }
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends the target request on every connection and counts each response and its status', async () => {
    const ok = await runLoad({
      url: `${base}/listing?x=1`,
      connections: 4,
      durationSeconds: 0.3,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(ok.total).toBeGreaterThan(10);
    expect(ok).toMatchObject({ errors: 0, non2xx: 0 });
    expect(ok.rps).toBeGreaterThan(0);
    expect(ok.p99).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({ host: base.slice(7), 'accept-encoding': 'gzip' });

    // every counted response's latency reaches onLatency (the bench pools them across slices)
    const latencies: number[] = [];
    const missing = await runLoad({
      url: `${base}/missing`,
      connections: 2,
      durationSeconds: 0.2,
      onLatency: (ms) => latencies.push(ms),
    });
    expect(missing.total).toBeGreaterThan(0);
    expect(missing.non2xx).toBe(missing.total);
    expect(latencies).toHaveLength(missing.total);
    expect(latencies.every((ms) => ms > 0 && ms < 1000)).toBe(true);
  });

  it('frames the responses of every connection apart, though all of them read into one buffer', async () => {
    const r = await runLoad({ url: `${base}/mixed`, connections: 6, durationSeconds: 0.4 });
    expect(r.errors).toBe(0);
    expect(r.total).toBeGreaterThan(12);
    // the responses still on the wire when the run stopped were sent but not counted
    expect(r.non2xx).toBeGreaterThanOrEqual(notFound - 6);
    expect(r.non2xx).toBeLessThanOrEqual(notFound);
    expect(r.total).toBeGreaterThanOrEqual([...served.values()].reduce((a, b) => a + b, 0) - 6);
  });

  it('writes a body with its length', () => {
    const bytes = requestBytes(new URL('http://h:1/p?q=1'), { method: 'POST', body: '{"a":1}' });
    expect(bytes.toString()).toBe('POST /p?q=1 HTTP/1.1\r\nhost: h:1\r\ncontent-length: 7\r\n\r\n{"a":1}');
  });
});
