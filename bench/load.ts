// The bench's default load generator for plain requests (bench/run.ts): N keep-alive HTTP/1.1
// connections, one request in flight on each, responses framed by their Content-Length and never
// decoded, every read into one reused buffer. autocannon appends every response body to a string,
// so on a 2-core machine it saturated its own core on the 13 kB catalog bodies and its p99 measured
// its own queueing (10-15 ms where wrk saw 5-8 ms). This one uses a third of a core there, and its
// p99 agrees with wrk's within the machine's noise.
import { connect, type Socket } from 'node:net';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** called with every response's latency in ms (the bench pools several runs' latencies) */
  onLatency?: (ms: number) => void;
}

export interface LoadResult {
  rps: number;
  /** 99th percentile latency in ms, one decimal */
  p99: number;
  total: number;
  errors: number;
  non2xx: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
/** Shared by all connections: a read is framed (and what must outlive it copied) before the next. */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** The request's bytes, made once: every request of a run is the same. */
export function requestBytes(url: URL, opts: Pick<LoadOptions, 'method' | 'headers' | 'body'>): Buffer {
  const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
  const lines = [`${opts.method ?? 'GET'} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [k, v] of Object.entries(opts.headers ?? {})) lines.push(`${k}: ${v}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

/**
 * Reads responses off one connection's byte stream: headers until the blank line, then exactly
 * Content-Length body bytes, skipped. Calls `done(status)` per complete response.
 */
export class ResponseFramer {
  private head: Buffer | null = null;
  private remaining = 0;
  private status = 0;

  constructor(private readonly done: (status: number) => void) {}

  push(chunk: Buffer): void {
    let off = 0;
    while (off < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - off);
        this.remaining -= take;
        off += take;
        if (this.remaining === 0) this.done(this.status);
        continue;
      }
      const rest = chunk.subarray(off);
      const buf = this.head ? Buffer.concat([this.head, rest]) : rest;
      const end = buf.indexOf(HEADER_END);
      if (end < 0) {
        this.head = Buffer.from(buf); // a copy: the socket may reuse its chunk
        return;
      }
      const text = buf.toString('latin1', 0, end);
      const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(text);
      if (!length) throw new Error('response without Content-Length (chunked bodies are not supported)');
      this.status = Number(text.slice(9, 12));
      off += end + HEADER_END.length - (this.head?.length ?? 0);
      this.head = null;
      this.remaining = Number(length[1]);
      if (this.remaining === 0) this.done(this.status);
    }
  }
}

/** The p-th percentile of sorted values (nearest rank); 0 without values. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Response latencies in ms, kept unboxed in a growing Float64Array (runLoad's, and the bench's pooled slices). */
export class Latencies {
  private values = new Float64Array(1 << 16);
  count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  /** the 99th percentile in ms, one decimal */
  p99(): number {
    return Math.round(percentile(this.values.slice(0, this.count).sort(), 99) * 10) / 10;
  }
}

export function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const url = new URL(opts.url);
  const request = requestBytes(url, opts);
  const latencies = new Latencies();
  let errors = 0;
  let non2xx = 0;
  let running = true;
  const sockets = new Set<Socket>();
  const startedAt = performance.now();

  const record = (ms: number, status: number) => {
    latencies.add(ms);
    opts.onLatency?.(ms);
    if (status < 200 || status > 299) non2xx += 1;
  };

  const open = () => {
    if (!running) return;
    let sentAt = 0;
    const send = () => {
      sentAt = performance.now();
      socket.write(request);
    };
    const framer = new ResponseFramer((status) => {
      if (!running) return;
      record(performance.now() - sentAt, status);
      send();
    });
    const socket = connect({
      port: Number(url.port || 80),
      host: url.hostname,
      // every read lands in one reused buffer: with a new Buffer per read, 200 MB/s of catalog
      // bodies made V8 run a full collection about every 0.5 s (3-8 ms pauses) for their backing
      // stores, and each pause was counted into the latency of every request in flight
      onread: {
        buffer: READ_BUFFER,
        callback: (bytes) => {
          try {
            framer.push(READ_BUFFER.subarray(0, bytes));
          } catch {
            errors += 1;
            socket.destroy();
          }
          return true; // keep reading
        },
      },
    });
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('connect', send);
    socket.on('error', () => {
      errors += 1;
    });
    socket.on('close', () => {
      sockets.delete(socket);
      if (running) open(); // the server closed or failed it: keep the connection count
    });
  };

  for (let i = 0; i < opts.connections; i++) open();
  return new Promise((resolve) => {
    setTimeout(() => {
      running = false;
      const seconds = (performance.now() - startedAt) / 1000;
      for (const s of sockets) s.destroy();
      resolve({
        rps: Math.round(latencies.count / seconds),
        p99: latencies.p99(),
        total: latencies.count,
        errors,
        non2xx,
      });
    }, opts.durationSeconds * 1000);
  });
}
