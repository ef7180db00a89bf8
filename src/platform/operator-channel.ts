// Embedded PGlite lives inside one process: a second process opening the same data directory
// would neither see the server's writes nor keep its own safe. So while `serve` runs on PGlite it
// listens on a local Unix socket, and operator commands started in another shell hand their
// command line to it; the server runs them on its own database and streams the output back.
// Protocol: one JSON line {command, argv} in; JSON lines {out|err: line} and a last {exit} out.
import { existsSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';

export type RunCommand = (
  command: string,
  argv: string[],
  io: { out: (line: string) => void; err: (line: string) => void },
) => Promise<number>;

export function operatorSocketPath(pgliteDir: string): string {
  return `${pgliteDir.replace(/\/+$/, '')}.sock`;
}

export async function serveOperatorChannel(path: string, run: RunCommand): Promise<Server> {
  // a socket file left by a process that died is stale: nobody answers it
  if (
    existsSync(path) &&
    (await forward(
      path,
      '__ping',
      [],
      () => {},
      () => {},
    )) === null
  )
    unlinkSync(path);
  const server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      buffer += chunk;
      const nl = buffer.indexOf('\n');
      if (nl < 0) return;
      let request: { command: string; argv: string[] };
      try {
        request = JSON.parse(buffer.slice(0, nl));
      } catch {
        socket.end(`${JSON.stringify({ err: 'bad request', exit: 2 })}\n`);
        return;
      }
      const send = (msg: object) => socket.writable && socket.write(`${JSON.stringify(msg)}\n`);
      if (request.command === '__ping') {
        socket.end(`${JSON.stringify({ exit: 0 })}\n`);
        return;
      }
      run(request.command, request.argv ?? [], {
        out: (line) => send({ out: line }),
        err: (line) => send({ err: line }),
      })
        .catch((error: unknown) => {
          send({ err: error instanceof Error ? error.message : String(error) });
          return 1;
        })
        .then((exit) => socket.end(`${JSON.stringify({ exit })}\n`));
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  server.unref();
  return server;
}

/** Runs `command` in the server listening on `path`: its exit code, or null when none answers. */
export function forward(
  path: string,
  command: string,
  argv: string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number | null> {
  if (!existsSync(path)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const socket = createConnection(path);
    let buffer = '';
    let exit: number | null = null;
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ command, argv })}\n`));
    socket.on('data', (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const msg = JSON.parse(buffer.slice(0, nl)) as { out?: string; err?: string; exit?: number };
        buffer = buffer.slice(nl + 1);
        if (msg.out !== undefined) out(msg.out);
        if (msg.err !== undefined) err(msg.err);
        if (msg.exit !== undefined) exit = msg.exit;
      }
    });
    socket.on('error', () => resolve(null));
    socket.on('close', () => resolve(exit));
  });
}
