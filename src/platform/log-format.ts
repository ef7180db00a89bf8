// LOG_FORMAT=pretty (the development default): pino-pretty turns each JSON line into one readable
// line, and a request is logged once, when answered ("GET /api/es/config 200 3 ms"), instead of
// Fastify's two lines (incoming, completed). LOG_FORMAT=json keeps pino's lines for log shippers.
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import pretty from 'pino-pretty';

/** a synchronous pino-pretty destination (no worker thread) to stdout or `to`; colours only on a terminal */
export function prettyLogStream(to?: DestinationStream): DestinationStream {
  return pretty({
    sync: true,
    singleLine: true,
    ...(to ? { destination: to as NodeJS.WritableStream } : {}),
    colorize: !to && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime,statusCode',
  });
}

/** one line per answered request (with Fastify's own request logging off) */
export function logRequestsOnce(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const ms = Math.round(reply.elapsedTime);
    request.log.info(
      { reqId: request.id, statusCode: reply.statusCode, responseTime: ms },
      `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`,
    );
    done();
  });
}
