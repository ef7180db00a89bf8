// A fake DNS server on 127.0.0.1 (UDP) for the newsletter's mail-domain check. It speaks just
// enough of RFC 1035's wire format: one question per query; answers MX, A and AAAA from a zone
// table; NXDOMAIN for names it does not know; SERVFAIL or silence (a resolver time-out) on demand.
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

export interface FakeDomain {
  /** [preference, exchange]; exchange '.' is the root (RFC 7505 null MX: [[0, '.']]) */
  mx?: Array<[number, string]>;
  a?: string[];
  aaaa?: string[];
  /** answer SERVFAIL */
  servfail?: boolean;
  /** never answer (the resolver times out) */
  silent?: boolean;
}

export interface FakeDns {
  /** host:port for DNS_SERVERS */
  server: string;
  zone: Record<string, FakeDomain>;
  /** questions received, as "TYPE name" (e.g. "MX example.com") */
  queries: string[];
  close(): Promise<void>;
}

const TYPES: Record<number, string> = { 1: 'A', 15: 'MX', 28: 'AAAA' };

export async function startFakeDns(zone: Record<string, FakeDomain> = {}): Promise<FakeDns> {
  const socket: Socket = createSocket('udp4');
  const fake: FakeDns = {
    server: '',
    zone,
    queries: [],
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (msg, rinfo) => {
    const q = parseQuestion(msg);
    if (!q) return;
    const type = TYPES[q.qtype] ?? `TYPE${q.qtype}`;
    fake.queries.push(`${type} ${q.name}`);
    const domain = fake.zone[q.name.toLowerCase()];
    if (domain?.silent) return;
    const reply = answer(msg, q, domain);
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  fake.server = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  return fake;
}

interface Question {
  name: string;
  qtype: number;
  /** offset just past the question section */
  end: number;
}

function parseQuestion(msg: Buffer): Question | undefined {
  if (msg.length < 12 || msg.readUInt16BE(4) < 1) return undefined;
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length) {
    const len = msg[i];
    if (len === 0) break;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('ascii'));
    i += len + 1;
  }
  const qtype = msg.readUInt16BE(i + 1);
  return { name: labels.join('.'), qtype, end: i + 5 };
}

function encodeName(name: string): Buffer {
  if (name === '.' || name === '') return Buffer.from([0]);
  const parts = name.replace(/\.$/, '').split('.');
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p, 'ascii')])),
    Buffer.from([0]),
  ]);
}

function record(type: number, rdata: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0); // pointer to the question's name
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(1, 4); // class IN
  head.writeUInt32BE(300, 6); // TTL
  head.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([head, rdata]);
}

function ipv6(addr: string): Buffer {
  const [head, tail = ''] = addr.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = addr.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  const b = Buffer.alloc(16);
  for (const [i, g] of groups.entries()) b.writeUInt16BE(Number.parseInt(g || '0', 16), i * 2);
  return b;
}

function answer(query: Buffer, q: Question, domain: FakeDomain | undefined): Buffer {
  const answers: Buffer[] = [];
  let rcode = 0;
  if (!domain)
    rcode = 3; // NXDOMAIN
  else if (domain.servfail) rcode = 2;
  else if (q.qtype === 15) {
    for (const [pref, exchange] of domain.mx ?? []) {
      const p = Buffer.alloc(2);
      p.writeUInt16BE(pref);
      answers.push(record(15, Buffer.concat([p, encodeName(exchange)])));
    }
  } else if (q.qtype === 1) {
    for (const ip of domain.a ?? []) answers.push(record(1, Buffer.from(ip.split('.').map(Number))));
  } else if (q.qtype === 28) {
    for (const ip of domain.aaaa ?? []) answers.push(record(28, ipv6(ip)));
  }
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  const rd = query[2] & 0x01;
  header[2] = 0x80 | 0x04 | rd; // QR, AA, RD copied
  header[3] = 0x80 | rcode; // RA, RCODE
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, query.subarray(12, q.end), ...answers]);
}
