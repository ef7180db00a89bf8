// Does an email domain accept mail? MX lookup, with the A/AAAA fallback of RFC 5321 §5.1 when the
// domain publishes no MX; a null MX (RFC 7505: a single MX "." of preference 0) refuses mail.
// Answers are cached for a few minutes, so a repeat subscriber's request makes no lookup.
import { Resolver } from 'node:dns/promises';

/**
 * accepts: the domain has a mail host; refuses: NXDOMAIN, null MX, or no MX/A/AAAA at all;
 * unknown: the resolver could not say (time-out, SERVFAIL, refused).
 */
export type MailDomainVerdict = 'accepts' | 'refuses' | 'unknown';

export interface MailDomainCheckOptions {
  /** resolver addresses "host:port"; empty = the system's resolvers */
  servers: string[];
  /** bound on one lookup (each of MX, A, AAAA) */
  timeoutMs: number;
  /** how long answers are kept (default 5 minutes) */
  cacheMs?: number;
  /** most domains cached (default 10,000; the oldest go first) */
  cacheSize?: number;
}

const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

export class MailDomainCheck {
  private readonly resolver: Resolver;
  private readonly cache = new Map<string, { verdict: MailDomainVerdict; until: number }>();
  private readonly cacheMs: number;
  private readonly cacheSize: number;

  constructor(private readonly opts: MailDomainCheckOptions) {
    // one try, bounded: a slow resolver must not hold the request
    this.resolver = new Resolver({ timeout: opts.timeoutMs, tries: 1 });
    if (opts.servers.length) this.resolver.setServers(opts.servers);
    this.cacheMs = opts.cacheMs ?? 5 * 60_000;
    this.cacheSize = opts.cacheSize ?? 10_000;
  }

  async check(domain: string): Promise<MailDomainVerdict> {
    const key = domain.toLowerCase();
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.verdict;
    const verdict = await this.lookup(key);
    // an unknown answer is not cached: the next request asks again
    if (verdict !== 'unknown') {
      if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, { verdict, until: Date.now() + this.cacheMs });
    }
    return verdict;
  }

  private async lookup(domain: string): Promise<MailDomainVerdict> {
    const mx = await this.ask(() => this.resolver.resolveMx(domain));
    if (mx.kind === 'error') return 'unknown';
    if (mx.kind === 'nxdomain') return 'refuses';
    if (mx.kind === 'records') {
      const hosts = mx.records.filter((r) => r.exchange !== '' && r.exchange !== '.');
      // RFC 7505: "." as the only exchange means the domain accepts no mail
      return hosts.length > 0 ? 'accepts' : 'refuses';
    }
    // no MX: the domain's own address is its implicit mail host
    const [a, aaaa] = await Promise.all([
      this.ask(() => this.resolver.resolve4(domain)),
      this.ask(() => this.resolver.resolve6(domain)),
    ]);
    if (a.kind === 'records' || aaaa.kind === 'records') return 'accepts';
    if (a.kind === 'error' || aaaa.kind === 'error') return 'unknown';
    return 'refuses';
  }

  private async ask<T>(
    query: () => Promise<T[]>,
  ): Promise<{ kind: 'records'; records: T[] } | { kind: 'none' } | { kind: 'nxdomain' } | { kind: 'error' }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })), this.opts.timeoutMs);
    });
    try {
      const records = await Promise.race([query(), timeout]);
      return records.length ? { kind: 'records', records } : { kind: 'none' };
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code === 'ENOTFOUND') return { kind: 'nxdomain' };
      if (NO_RECORDS.has(code)) return { kind: 'none' };
      return { kind: 'error' };
    } finally {
      clearTimeout(timer);
    }
  }
}
