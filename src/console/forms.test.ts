import { describe, expect, it } from 'vitest';
import { fieldId, formField, formProblems, problemsToFields } from './forms.js';

describe('console forms', () => {
  it('puts each import problem on the form row and field it came from, naming the line of a list', () => {
    const problems = problemsToFields(
      [
        { path: '/market_products/0/itinerary/1/day', reason: 'must be integer' },
        { path: '/market_products/0/itinerary/1/activities/1/tier', reason: 'must be one of ...' },
        { path: '/market_products/0/highlights/0', reason: 'must be string' },
        { path: '/market_products/0/version', reason: 'odd' },
        { path: '/', reason: 'the database refused the import' },
      ],
      '/market_products/0',
      // the form's rows 0 and 2 were sent (row 1 removed): document item 1 is form row 2
      { fields: ['itinerary.2.day', 'itinerary.2.activities', 'highlights'], rows: { itinerary: [0, 2] } },
    );
    expect(problems).toEqual({
      'itinerary.2.day': ['must be integer'],
      'itinerary.2.activities': ['line 2 (tier): must be one of ...'],
      highlights: ['line 1: must be string'],
      '': ['version: odd', 'the database refused the import'],
    });
  });

  it('without a list of fields, a problem belongs to the first segment below the record', () => {
    expect(
      problemsToFields(
        [
          { path: '/countries/0/sort_order', reason: 'must be integer' },
          { path: '/countries/0/products/1', reason: "unknown tour 'x'" },
          { path: '/regions/0/slug', reason: 'elsewhere' },
        ],
        '/countries/0',
      ),
    ).toEqual({
      sort_order: ['must be integer'],
      products: ["line 2: unknown tour 'x'"],
      '': ['/regions/0/slug: elsewhere'],
    });
    // field names with dots (Supply texts: `de.name`) below a deeper record path
    expect(
      problemsToFields(
        [{ path: '/hotels/0/translations/de/amenities/0/icon', reason: 'must not be empty' }],
        '/hotels/0/translations',
        { fields: ['de.name', 'de.amenities'] },
      ),
    ).toEqual({ 'de.amenities': ['line 1 (icon): must not be empty'] });
  });

  it('labels a field, points it at its hint and its problems, and lists the problems at the top with links', () => {
    expect(fieldId('itinerary.2.title', 'tour')).toBe('f-tour-itinerary-2-title');
    expect(formField({ name: 'slug', label: 'Slug', hint: 'lower-case' }, 'Bad', ['has an invalid format']).text).toBe(
      '<div class="field has-error"><label for="f-slug">Slug</label><p class="hint" id="f-slug-hint">lower-case</p>\n' +
        '<input id="f-slug" name="slug" aria-invalid="true" aria-describedby="f-slug-error f-slug-hint" type="text" value="Bad">' +
        '<ul class="field-error" id="f-slug-error"><li>has an invalid format</li></ul></div>',
    );
    expect(
      formField({ name: 'sort_order', label: 'Sort order', type: 'number' }, '3', [], { disabled: true }).text,
    ).toContain('<input id="f-sort-order" name="sort_order" disabled type="text" inputmode="numeric" value="3">');
    expect(
      formProblems({ slug: ['has an invalid format'], '': ['the database refused'] }, { label: () => 'Slug' }).text,
    ).toBe(
      '<div class="alert error" role="alert"><p>Not saved: 2 problem(s), shown next to their fields.</p><ul>' +
        '<li><a href="#f-slug">Slug</a>: has an invalid format</li><li>the database refused</li></ul></div>',
    );
    expect(formProblems({}).text).toBe('');
  });

  it('keeps a select value the choices do not hold, groups tick boxes under a legend, and can hide a label', () => {
    expect(
      formField({ name: 'tier', label: 'Tier', type: 'select', options: ['included'], empty: '—' }, 'odd').text,
    ).toContain(
      '<option value="">—</option><option value="odd" selected>odd</option><option value="included">included</option>',
    );
    const days = formField(
      {
        name: 'weekdays',
        label: 'Departs on',
        type: 'checkboxes',
        options: [
          { value: '1', label: 'Monday' },
          { value: '2', label: 'Tuesday' },
        ],
      },
      '2',
      ['must not be empty'],
    ).text;
    expect(days).toContain(
      '<fieldset id="f-weekdays" class="field has-error" aria-invalid="true" aria-describedby="f-weekdays-error"><legend>Departs on</legend>',
    );
    expect(days).toContain(
      '<label for="f-weekdays-1"><input id="f-weekdays-1" name="weekdays" type="checkbox" value="2" checked> Tuesday</label>',
    );
    expect(formField({ name: 'order_asia', label: 'Sort order of asia', hiddenLabel: true }, '1').text).toContain(
      '<label for="f-order-asia" class="sr-only">Sort order of asia</label>',
    );
  });
});
