import { describe, expect, it } from 'vitest';
import {
  basicCredentials,
  bucketIndex,
  credentialsMatch,
  emptyBuckets,
  environmentBadge,
  escapeHtml,
  minuteOf,
  percentile,
  storableErrorMessage,
  storableHeaders,
  storablePath,
} from './rules.js';

describe('duration buckets and percentiles', () => {
  it('puts a duration in the first bucket whose upper bound holds it, the open-ended one last', () => {
    expect(bucketIndex(0)).toBe(0);
    expect(bucketIndex(5)).toBe(0);
    expect(bucketIndex(5.01)).toBe(1);
    expect(bucketIndex(999)).toBe(7);
    expect(bucketIndex(60_000)).toBe(11);
    expect(emptyBuckets()).toHaveLength(12);
  });

  it('estimates percentiles inside the bucket, never above the largest duration seen', () => {
    const buckets = emptyBuckets();
    buckets[bucketIndex(20)] = 90; // 10 < d <= 25
    buckets[bucketIndex(400)] = 10; // 250 < d <= 500
    expect(percentile(buckets, 50, 450)).toBe(18.3);
    expect(percentile(buckets, 95, 450)).toBe(350);
    expect(percentile(buckets, 99, 450)).toBe(430);
    expect(percentile(buckets, 100, 450)).toBe(450);
    expect(percentile(emptyBuckets(), 50, 0)).toBeNull();
    const slow = emptyBuckets();
    slow[11] = 2;
    expect(percentile(slow, 99, 12_000)).toBeLessThanOrEqual(12_000);
  });

  it('minuteOf truncates to the UTC minute', () => {
    expect(minuteOf(new Date('2026-06-15T10:04:59.999Z')).toISOString()).toBe('2026-06-15T10:04:00.000Z');
  });
});

describe('what may be stored', () => {
  it('drops credentials, cookies and secret-looking headers', () => {
    expect(
      storableHeaders({
        authorization: 'Bearer x',
        'proxy-authorization': 'Basic y',
        cookie: 'a=b',
        'x-api-key': 'k',
        'api-token': 't',
        'stripe-signature': 's',
        'x-csrf-token': 'c',
        'user-agent': 'ua',
        accept: ['a', 'b'],
        host: undefined,
      }),
    ).toEqual({ 'user-agent': 'ua', accept: 'a, b' });
  });

  it('stores paths with the names of query parameters, never their values', () => {
    expect(storablePath('/preview/3?expires=1&signature=abc')).toBe('/preview/3?expires&signature');
    expect(storablePath(`/${'a'.repeat(600)}`)).toHaveLength(500);
  });

  it('masks credentials in error messages', () => {
    expect(
      storableErrorMessage('redis://:pw@cache:6379 refused; Bearer abc.def; token=xyz&x=1; password: hunter2'),
    ).toBe('redis://***@cache:6379 refused; Bearer ***; token=***&x=1; password: ***');
  });

  it('escapes HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('badges and login', () => {
  it('colours production green, staging yellow and everything else blue', () => {
    expect(environmentBadge('production')).toBe('green');
    expect(environmentBadge('Staging')).toBe('yellow');
    expect(environmentBadge('qa')).toBe('blue');
  });

  it('reads Basic credentials (passwords may hold colons) and compares both parts', () => {
    const header = `Basic ${Buffer.from('ops:a:b').toString('base64')}`;
    expect(basicCredentials(header)).toEqual({ user: 'ops', password: 'a:b' });
    expect(basicCredentials('Bearer x')).toBeNull();
    expect(basicCredentials(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeNull();
    const expected = { user: 'ops', password: 'a:b' };
    expect(credentialsMatch({ user: 'ops', password: 'a:b' }, expected)).toBe(true);
    expect(credentialsMatch({ user: 'ops', password: 'a:c' }, expected)).toBe(false);
    expect(credentialsMatch({ user: 'op', password: 'a:b' }, expected)).toBe(false);
    expect(credentialsMatch(null, expected)).toBe(false);
    expect(credentialsMatch({ user: '', password: '' }, { user: '', password: '' })).toBe(false);
  });
});
