// The mail-domain check against a fake DNS server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDns, startFakeDns } from '../../../test/fakes/dns.js';
import { MailDomainCheck } from './mail-domain.js';

let dns: FakeDns;

beforeAll(async () => {
  dns = await startFakeDns({
    'mx.test': { mx: [[10, 'mail.mx.test']] },
    'twomx.test': {
      mx: [
        [20, 'b.twomx.test'],
        [10, 'a.twomx.test'],
      ],
    },
    'nullmx.test': { mx: [[0, '.']], a: ['192.0.2.1'] },
    'a-only.test': { a: ['192.0.2.10'] },
    'aaaa-only.test': { aaaa: ['2001:db8::1'] },
    'nothing.test': {},
    'servfail.test': { servfail: true },
    'silent.test': { silent: true },
  });
});
afterAll(async () => {
  await dns.close();
});

function check(timeoutMs = 300) {
  return new MailDomainCheck({ servers: [dns.server], timeoutMs });
}

describe('mail domain check', () => {
  it('accepts a domain with MX records', async () => {
    expect(await check().check('mx.test')).toBe('accepts');
    expect(await check().check('twomx.test')).toBe('accepts');
  });

  it('refuses a null MX (RFC 7505) even when the domain has an address', async () => {
    expect(await check().check('nullmx.test')).toBe('refuses');
  });

  it('falls back to A and AAAA when there is no MX', async () => {
    expect(await check().check('a-only.test')).toBe('accepts');
    expect(await check().check('aaaa-only.test')).toBe('accepts');
    expect(dns.queries).toContain('A a-only.test');
  });

  it('refuses NXDOMAIN and a domain with neither MX nor address', async () => {
    expect(await check().check('unknown-domain.test')).toBe('refuses');
    expect(await check().check('nothing.test')).toBe('refuses');
  });

  it('answers unknown on SERVFAIL and on a resolver that does not answer, within the time-out', async () => {
    expect(await check().check('servfail.test')).toBe('unknown');
    const started = Date.now();
    expect(await check(300).check('silent.test')).toBe('unknown');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('caches answers, but not unknown ones', async () => {
    const c = check();
    const before = dns.queries.filter((q) => q === 'MX mx.test').length;
    await c.check('MX.test');
    await c.check('mx.test');
    expect(dns.queries.filter((q) => q === 'MX mx.test').length).toBe(before + 1);
    const sf = dns.queries.filter((q) => q === 'MX servfail.test').length;
    await c.check('servfail.test');
    await c.check('servfail.test');
    expect(dns.queries.filter((q) => q === 'MX servfail.test').length).toBe(sf + 2);
  });
});
