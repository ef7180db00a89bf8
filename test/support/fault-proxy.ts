// A TCP proxy between the app and PostgreSQL or Redis that a test switches between faults:
//   pass     forwards both ways (the default)
//   stall    accepts connections and holds them: nothing is forwarded either way, new or open ones
//            (a server that accepts but never answers; a network that blackholes)
//   drop     resets every open connection, and each new one as soon as it arrives
//   refuse   stops listening: connections are refused (ECONNREFUSED), open ones are reset
//   stallOn(text) passes until a client sends `text` (e.g. COMMIT), then stalls that connection with
//            the text held back: a network that fails at the worst moment of a transaction
// `faults` counts the connections that met a fault, for the suite's report.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type FaultMode = 'pass' | 'stall' | 'drop' | 'refuse';

interface Pair {
  client: Socket;
  upstream?: Socket;
  /** client bytes not forwarded yet (stalled) */
  held: Buffer[];
  stalled: boolean;
}

export class FaultProxy {
  private mode: FaultMode = 'pass';
  private trigger: string | undefined;
  private server?: Server;
  private readonly pairs = new Set<Pair>();
  /** connections that met a fault (dropped, refused while open, stalled) */
  faults = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  /** A proxy on 127.0.0.1 (a free port) in front of `target`. */
  static async start(target: { host: string; port: number }): Promise<FaultProxy> {
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((r) => probe.close(r));
    const proxy = new FaultProxy(target, port);
    await proxy.listen();
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  get current(): FaultMode {
    return this.mode;
  }

  /** Passes traffic until a client sends `text` (case-insensitive), then stalls that connection. */
  async stallOn(text: string): Promise<void> {
    await this.set('pass');
    this.trigger = text.toLowerCase();
  }

  async set(mode: FaultMode): Promise<void> {
    const was = this.mode;
    this.mode = mode;
    this.trigger = undefined;
    if (mode === 'drop' || mode === 'refuse') {
      for (const p of this.pairs) this.reset(p);
    }
    if (mode === 'stall') {
      for (const p of this.pairs) this.stallPair(p);
    }
    if (mode === 'refuse' && this.server) {
      const s = this.server;
      this.server = undefined;
      await new Promise((r) => s.close(r));
    }
    if (was === 'refuse' && mode !== 'refuse') await this.listen();
    if (mode === 'pass') {
      // only stalled connections: piping a passing one again would deliver its answers twice
      for (const p of this.pairs) if (p.stalled) this.resume(p);
    }
  }

  async close(): Promise<void> {
    for (const p of this.pairs) this.reset(p);
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise((r) => s.close(r));
  }

  private async listen(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  private accept(client: Socket): void {
    const pair: Pair = { client, held: [], stalled: false };
    this.pairs.add(pair);
    client.on('error', () => {});
    client.on('close', () => {
      pair.upstream?.destroy();
      this.pairs.delete(pair);
    });
    if (this.mode === 'drop') {
      this.reset(pair);
      return;
    }
    if (this.mode === 'stall') {
      this.faults++;
      pair.stalled = true;
      client.pause(); // held open, never read, never answered
      return;
    }
    this.connectUpstream(pair);
  }

  private connectUpstream(pair: Pair): void {
    const upstream = createConnection(this.target.port, this.target.host);
    pair.upstream = upstream;
    upstream.on('error', () => pair.client.destroy());
    upstream.on('close', () => pair.client.destroy());
    pair.client.on('data', (chunk: Buffer) => this.forward(pair, chunk));
    upstream.pipe(pair.client);
  }

  private forward(pair: Pair, chunk: Buffer): void {
    if (!pair.stalled && this.trigger && chunk.toString('latin1').toLowerCase().includes(this.trigger)) {
      this.trigger = undefined;
      this.stallPair(pair);
    }
    if (pair.stalled) pair.held.push(chunk);
    else pair.upstream?.write(chunk);
  }

  private stallPair(p: Pair): void {
    this.faults++;
    p.stalled = true;
    if (p.upstream) {
      p.upstream.unpipe(p.client);
      p.upstream.pause();
    }
    p.client.pause();
  }

  private resume(p: Pair): void {
    p.stalled = false;
    if (!p.upstream) {
      // stalled before it ever reached the server: connect it now
      this.connectUpstream(p);
      p.client.resume();
      return;
    }
    for (const chunk of p.held.splice(0)) p.upstream.write(chunk);
    p.upstream.pipe(p.client);
    p.client.resume();
    p.upstream.resume();
  }

  private reset(p: Pair): void {
    this.faults++;
    p.client.resetAndDestroy();
    p.upstream?.destroy();
    this.pairs.delete(p);
  }
}
