import { describe, expect, it } from 'vitest';
import type { CrmSyncStatus } from '../../db/schema/crm.js';
import {
  consentDate,
  leadTitle,
  retryAfterSeconds,
  type SyncEvent,
  type SyncState,
  statusesFor,
  transition,
} from './rules.js';

const state = (status: CrmSyncStatus, extra: Partial<SyncState> = {}): SyncState => ({
  status,
  remoteId: null,
  attempts: 1,
  lastError: null,
  ...extra,
});
const ALL: CrmSyncStatus[] = ['Pending', 'Synced', 'Failed', 'Ignored'];

describe('sync record transitions (spec 3 table)', () => {
  it('Pending -> Synced when the mirror job delivered everything; error cleared, remote id kept', () => {
    const move = transition(state('Pending', { lastError: 'old' }), { type: 'delivered', remoteId: '42' });
    expect(move).toEqual({ to: { status: 'Synced', remoteId: '42', attempts: 2, lastError: null }, report: 'none' });
  });

  it('a backoff retry of a Failed record and a phone-only run on a Synced one also end Synced', () => {
    expect(transition(state('Failed'), { type: 'delivered', remoteId: '7' })?.to.status).toBe('Synced');
    expect(transition(state('Synced'), { type: 'delivered', remoteId: '7' })?.to.status).toBe('Synced');
  });

  it('Pending -> Pending on 429: error stored, no try used', () => {
    const move = transition(state('Pending', { attempts: 2 }), { type: 'rate_limited', error: 'HTTP 429' });
    expect(move?.to).toEqual({ status: 'Pending', remoteId: null, attempts: 2, lastError: 'HTTP 429' });
  });

  it('any -> Failed on a connection error or time-out (retried by backoff, not reported)', () => {
    for (const from of ['Pending', 'Synced', 'Failed'] as const) {
      const move = transition(state(from), { type: 'connection_error', error: 'ECONNREFUSED' });
      expect(move).toEqual({
        to: { status: 'Failed', remoteId: null, attempts: 2, lastError: 'ECONNREFUSED' },
        report: 'info',
      });
    }
  });

  it('any -> Failed on auth, validation or other non-2xx, reported as an error', () => {
    for (const from of ['Pending', 'Synced', 'Failed'] as const) {
      const move = transition(state(from), { type: 'rejected', error: 'HTTP 401' });
      expect(move?.to.status).toBe('Failed');
      expect(move?.report).toBe('error');
    }
  });

  it('any -> Ignored when the CRM reports the record deleted; not reported as an error', () => {
    for (const from of ['Pending', 'Synced', 'Failed'] as const) {
      const move = transition(state(from, { remoteId: '9' }), { type: 'deleted', reason: 'person 9 deleted' });
      expect(move?.to).toMatchObject({ status: 'Ignored', remoteId: '9' });
      expect(move?.report).toBe('info');
    }
  });

  it('any -> Failed when all retries are exhausted, logged at error', () => {
    for (const from of ['Pending', 'Failed'] as const) {
      const move = transition(state(from), { type: 'exhausted', error: 'timed out' });
      expect(move).toEqual({
        to: { status: 'Failed', remoteId: null, attempts: 1, lastError: 'timed out' },
        report: 'error',
      });
    }
  });

  it('monitor Retry: Failed -> Pending, attempts reset; refused from any other status', () => {
    const move = transition(state('Failed', { attempts: 3, lastError: 'x' }), { type: 'retry_action' });
    expect(move?.to).toEqual({ status: 'Pending', remoteId: null, attempts: 0, lastError: 'x' });
    for (const from of ['Pending', 'Synced', 'Ignored'] as const) {
      expect(transition(state(from), { type: 'retry_action' })).toBeNull();
    }
  });

  it('monitor Reactivate: Ignored -> Pending only', () => {
    const move = transition(state('Ignored', { remoteId: '5', lastError: 'deleted' }), { type: 'reactivate' });
    expect(move?.to).toEqual({ status: 'Pending', remoteId: '5', attempts: 0, lastError: null });
    for (const from of ['Pending', 'Synced', 'Failed'] as const) {
      expect(transition(state(from), { type: 'reactivate' })).toBeNull();
    }
  });

  it('no job event moves an Ignored record (only Reactivate does)', () => {
    const events: SyncEvent[] = [
      { type: 'delivered', remoteId: '1' },
      { type: 'rate_limited', error: 'e' },
      { type: 'connection_error', error: 'e' },
      { type: 'rejected', error: 'e' },
      { type: 'deleted', reason: 'r' },
      { type: 'exhausted', error: 'e' },
      { type: 'linked', remoteId: '1' },
    ];
    for (const e of events) expect(transition(state('Ignored'), e)).toBeNull();
  });

  it('exhausted does not undo a Synced record; linking keeps the status', () => {
    expect(transition(state('Synced'), { type: 'exhausted', error: 'e' })).toBeNull();
    for (const from of ['Pending', 'Failed', 'Synced'] as const) {
      expect(transition(state(from), { type: 'linked', remoteId: '3' })?.to).toMatchObject({
        status: from,
        remoteId: '3',
      });
    }
  });

  it('every event is defined for every status (null or a move, never a throw)', () => {
    const events: SyncEvent[] = [
      { type: 'delivered', remoteId: '1' },
      { type: 'retry_action' },
      { type: 'reactivate' },
      { type: 'rate_limited', error: 'e' },
    ];
    for (const s of ALL) for (const e of events) expect(() => transition(state(s), e)).not.toThrow();
  });
});

describe('command scopes', () => {
  it('never include Ignored', () => {
    expect(statusesFor('failed')).toEqual(['Failed']);
    expect(statusesFor('pending')).toEqual(['Pending']);
    expect(statusesFor('all')).toEqual(['Failed', 'Pending']);
  });
});

describe('leadTitle', () => {
  it('joins destination labels, or falls back to a web inquiry', () => {
    expect(leadTitle('Ana', ['Japan', 'Kyoto'])).toBe('Ana - Japan, Kyoto');
    expect(leadTitle('Ana', [])).toBe('Web inquiry from Ana');
    expect(leadTitle('Ana', [' '])).toBe('Web inquiry from Ana');
  });
});

describe('retryAfterSeconds', () => {
  const now = new Date('2026-06-15T10:00:00Z');
  it('reads seconds and HTTP dates; at least 1 s; 10 s when absent or unreadable', () => {
    expect(retryAfterSeconds('30', now)).toBe(30);
    expect(retryAfterSeconds('0', now)).toBe(1);
    expect(retryAfterSeconds(null, now)).toBe(10);
    expect(retryAfterSeconds('soon', now)).toBe(10);
    expect(retryAfterSeconds('Mon, 15 Jun 2026 10:00:45 GMT', now)).toBe(45);
  });
});

describe('consentDate', () => {
  it('is the UTC calendar date', () => {
    expect(consentDate(new Date('2026-06-15T23:30:00Z'))).toBe('2026-06-15');
  });
});
