// docs/booking-lifecycle.md draws BOOKING_TRANSITIONS: every arrow between two statuses is a move the
// table lists, and every move the table lists is an arrow.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../platform/paths.js';
import { BOOKING_TRANSITIONS } from './rules.js';

describe('docs/booking-lifecycle.md', () => {
  it('has one arrow per move of BOOKING_TRANSITIONS, and no other', () => {
    const doc = readFileSync(projectPath('docs', 'booking-lifecycle.md'), 'utf8');
    const arrows = [...doc.matchAll(/^\s+(\w+) --> (\w+) :/gm)].map((m) => `${m[1]} -> ${m[2]}`);
    const table = Object.entries(BOOKING_TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => `${from} -> ${to}`));
    expect(arrows.sort()).toEqual(table.sort());
  });
});
