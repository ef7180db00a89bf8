// A fake of the S3 REST API on 127.0.0.1, path-style (http://127.0.0.1:port/<bucket>/<key>):
// PutObject, GetObject and HeadObject with S3's headers (ETag, Content-Type, Content-Length) and
// its XML error documents (NoSuchKey, NoSuchBucket, AccessDenied, InternalError). It records each
// request (method, path, headers, body) so tests assert what we sent, and can answer a scripted
// failure: an HTTP status with S3's error document, or no answer at all ('hang').
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Request {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type S3Answer = 'ok' | 'hang' | { status: 403 | 500 | 503 };

export interface FakeS3 {
  url: string;
  bucket: string;
  objects: Map<string, { body: Buffer; contentType: string; cacheControl?: string; etag: string }>;
  requests: S3Request[];
  answer: S3Answer;
  /**
   * Whether our credentials may s3:ListBucket (true by default). Without it S3 answers a missing
   * key with 403 AccessDenied instead of 404 NoSuchKey, on GET and HEAD alike.
   */
  listBucket: boolean;
  close(): Promise<void>;
}

const CODES: Record<number, [string, string]> = {
  403: ['AccessDenied', 'Access Denied'],
  404: ['NoSuchKey', 'The specified key does not exist.'],
  500: ['InternalError', 'We encountered an internal error. Please try again.'],
  503: ['SlowDown', 'Please reduce your request rate.'],
};

function error(res: ServerResponse, status: number, resource: string, head: boolean, code?: string): void {
  const [c, message] = code ? [code, 'The specified bucket does not exist'] : CODES[status]!;
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': 'FAKE0001' });
  res.end(
    head
      ? undefined
      : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${c}</Code><Message>${message}</Message><Resource>${resource}</Resource><RequestId>FAKE0001</RequestId></Error>`,
  );
}

export async function startFakeS3(bucket = 'itinera-media'): Promise<FakeS3> {
  const hanging = new Set<ServerResponse>();
  const fake: Omit<FakeS3, 'url' | 'close'> = {
    bucket,
    objects: new Map(),
    requests: [],
    answer: 'ok',
    listBucket: true,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = Buffer.concat(chunks);
      fake.requests.push({
        method: req.method ?? '',
        path: decodeURIComponent(url.pathname),
        headers: req.headers,
        body,
      });
      const head = req.method === 'HEAD';
      if (fake.answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof fake.answer === 'object') return error(res, fake.answer.status, url.pathname, head);
      const [, b, ...rest] = decodeURIComponent(url.pathname).split('/');
      const key = rest.join('/');
      if (b !== bucket) return error(res, 404, url.pathname, head, 'NoSuchBucket');
      if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 '))
        return error(res, 403, url.pathname, head);
      if (req.method === 'PUT') {
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        fake.objects.set(key, {
          body,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          cacheControl: req.headers['cache-control'],
          etag,
        });
        res.writeHead(200, { etag, 'content-length': '0' });
        return res.end();
      }
      if (req.method === 'GET' || head) {
        const o = fake.objects.get(key);
        if (!o) return error(res, fake.listBucket ? 404 : 403, url.pathname, head);
        res.writeHead(200, {
          'content-type': o.contentType,
          'content-length': String(o.body.length),
          etag: o.etag,
          'last-modified': new Date('2026-06-15T10:00:00Z').toUTCString(),
          ...(o.cacheControl ? { 'cache-control': o.cacheControl } : {}),
        });
        return res.end(head ? undefined : o.body);
      }
      res.writeHead(405);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  }) as FakeS3;
}
