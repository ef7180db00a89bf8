import { describe, expect, it } from 'vitest';
import { actionsFrom, marketRecord, permissionToChange, productRecord } from './rules.js';

describe('catalog editor rules', () => {
  it('needs publish_catalog for any product that is not a draft', () => {
    expect(['draft', 'active', 'inactive', 'archived'].map(permissionToChange)).toEqual([
      'edit_catalog',
      'publish_catalog',
      'publish_catalog',
      'publish_catalog',
    ]);
    expect(actionsFrom('draft')).toEqual(['publish', 'archive']);
    expect(actionsFrom('active')).toEqual(['unpublish', 'archive']);
    expect(actionsFrom('archived')).toEqual(['restore']);
  });

  it('builds the itinerary from the rows kept, and names the rows it kept', () => {
    const { record, rows } = productRecord({
      'itinerary.0.day': '1',
      'itinerary.0.title': 'Tokyo',
      'itinerary.1.day': '2',
      'itinerary.1.title': 'Gone',
      'itinerary.1.remove': '1',
      'itinerary.2.day': 'two',
      'itinerary.2.title': 'Kyoto',
      'itinerary.2.activities': 'tea-ceremony included\nsumo',
      'itinerary.3.day': '',
      'itinerary.3.title': '',
    });
    expect(record.itinerary).toEqual([
      { day: 1, title: 'Tokyo', description: '', city: null, country: null, activities: [] },
      {
        day: 'two',
        title: 'Kyoto',
        description: '',
        city: null,
        country: null,
        activities: [
          { activity: 'tea-ceremony', tier: 'included' },
          { activity: 'sumo', tier: '' },
        ],
      },
    ]);
    expect(rows).toEqual({ itinerary: [0, 2] });
  });

  it('puts the default language first, as the import names it', () => {
    const { fragment, problems } = marketRecord({ languages: 'es, ca en', default_language: 'ca' }, false);
    expect(fragment.record.languages).toEqual(['ca', 'es', 'en']);
    expect(problems).toEqual([]);
    expect(marketRecord({ languages: 'es', default_language: 'fr' }, false).problems).toEqual([
      { path: '/default_language', reason: "'fr' is not among the languages" },
    ]);
  });
});
