// A fake of the ECB's euro reference rates daily feed (eurofxref-daily.xml) on 127.0.0.1, in the
// published document's shape (gesmes:Envelope, Cube time=..., Cube currency=... rate=...). It
// answers the document for the date and rates the test sets, or a scripted failure: a malformed
// document, an HTTP error, or no answer at all.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type EcbAnswer = 'ok' | 'truncated' | 'html' | 'bad-rate' | { status: number } | 'hang';

export interface FakeEcb {
  url: string;
  /** the reference date and rates the next answers carry */
  publish(date: string, rates: Record<string, string>): void;
  answer: EcbAnswer;
  requests: number;
  close(): Promise<void>;
}

export function ecbDocument(date: string, rates: Record<string, string>): string {
  const cubes = Object.entries(rates)
    .map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${date}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>
`;
}

export async function startFakeEcb(): Promise<FakeEcb> {
  let date = '2026-06-12';
  let rates: Record<string, string> = { USD: '1.0866', GBP: '0.85390', JPY: '169.07' };
  const hanging = new Set<ServerResponse>();
  const fake = {
    answer: 'ok' as EcbAnswer,
    requests: 0,
  };
  const server = createServer((_req, res) => {
    fake.requests++;
    const a = fake.answer;
    if (a === 'hang') {
      hanging.add(res);
      return;
    }
    if (typeof a === 'object') {
      res.writeHead(a.status, { 'content-type': 'text/html' });
      res.end('<html><body>Service unavailable</body></html>');
      return;
    }
    const doc = ecbDocument(date, a === 'bad-rate' ? { ...rates, CHF: 'n/a' } : rates);
    const body = a === 'truncated' ? doc.slice(0, doc.length / 2) : a === 'html' ? '<html>maintenance</html>' : doc;
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/stats/eurofxref/eurofxref-daily.xml`,
    publish(d: string, r: Record<string, string>) {
      date = d;
      rates = r;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
