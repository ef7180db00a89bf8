// LOG_FORMAT=pretty (the development default): pino-pretty turns each JSON line into one readable
// line, and a request is logged once, when answered ("GET /api/es/config 200 3 ms"), instead of
// Fastify's two lines (incoming, completed). LOG_FORMAT=json keeps pino's lines for log shippers.
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
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

/** Fastify's request log lines, one per answered request: nothing on arrival, method, URL, status and time at the end */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const ms = Math.round(reply.elapsedTime);
    const line = `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`;
    if (error) reply.log.error({ err: error, statusCode: reply.statusCode, responseTime: ms }, line);
    else reply.log.info({ statusCode: reply.statusCode, responseTime: ms }, line);
  }
}
