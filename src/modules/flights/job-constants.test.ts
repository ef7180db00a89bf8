// The spec's job constants, each pinned: the admin flight-booking leg job (spec 2) and the
// newsletter's marketing-automation mirror job (spec 3). A change here is a change of contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { ACTIVECAMPAIGN_TIMEOUT_MS } from '../marketing/client.js';
import { jobs as marketingJobs } from '../marketing/jobs.js';
import { flightJobs, LEG_JOB } from './jobs.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('job constants', () => {
  it('flight leg job: tries 3, backoff 120 s, time-out 420 s, unique lock 480 s, max exceptions 2, release 300 s', () => {
    const { bookLeg } = flightJobs(t.app.ctx);
    expect(bookLeg.tries).toBe(3);
    expect(bookLeg.backoffSeconds).toEqual([120]);
    expect(bookLeg.timeoutSeconds).toBe(420);
    expect(bookLeg.uniqueSeconds).toBe(480);
    expect(LEG_JOB.maxExceptions).toBe(2);
    expect(LEG_JOB.noMatchReleaseSeconds).toBe(300);
  });

  it('marketing job: tries 3, time-out 120 s, backoff 30, 60, 180 s, HTTP time-out 30 s', () => {
    const [marketing] = marketingJobs(t.app.ctx);
    expect(marketing.tries).toBe(3);
    expect(marketing.timeoutSeconds).toBe(120);
    expect(marketing.backoffSeconds).toEqual([30, 60, 180]);
    expect(ACTIVECAMPAIGN_TIMEOUT_MS).toBe(30_000);
  });
});
