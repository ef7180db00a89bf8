import { describe, expect, it } from 'vitest';
import { assetUrl } from '../../platform/urls.js';
import { leadingPrice } from '../catalog/rules.js';
import { productPath } from '../markets/rules.js';
import {
  consoleName,
  DEFAULT_LABELS,
  durationLabel,
  itineraryLine,
  LABEL_FIELDS,
  resolveLabels,
  visibleTrailers,
} from './rules.js';

describe('assetUrl', () => {
  const base = 'https://assets.example.com/storage/';
  it('joins storage paths to the base URL', () => {
    expect(assetUrl(base, 'regions/asia.jpg')).toBe('https://assets.example.com/storage/regions/asia.jpg');
    expect(assetUrl(base, '/regions/asia.jpg')).toBe('https://assets.example.com/storage/regions/asia.jpg');
  });
  it('passes URLs through unchanged', () => {
    for (const url of [
      'https://cdn.example.com/a.jpg',
      'http://x.test/a.png',
      '//cdn.example.com/a.jpg',
      'data:image/png;base64,AA',
    ]) {
      expect(assetUrl(base, url)).toBe(url);
    }
  });
  it('gives null for no value', () => {
    expect(assetUrl(base, null)).toBeNull();
    expect(assetUrl(base, undefined)).toBeNull();
    expect(assetUrl(base, '  ')).toBeNull();
  });
});

describe('resolveLabels', () => {
  it('has a complete set of defaults for every built-in language', () => {
    for (const labels of Object.values(DEFAULT_LABELS)) {
      expect(Object.keys(labels).sort()).toEqual([...LABEL_FIELDS].sort());
      for (const v of Object.values(labels)) expect(v.trim()).not.toBe('');
    }
  });
  it('falls back per field: missing, null and blank values take the default', () => {
    expect(
      resolveLabels({ hero_button_primary: 'Go', newsletter_heading: null, newsletter_button_text: ' ' }, 'es'),
    ).toEqual({
      ...DEFAULT_LABELS.es,
      hero_button_primary: 'Go',
    });
  });
  it('uses English defaults for a language without its own', () => {
    expect(resolveLabels(undefined, 'pt')).toEqual(DEFAULT_LABELS.en);
  });
});

describe('visibleTrailers', () => {
  const base = 'https://a.test';
  const full = { id: null, posterImage: 'p.jpg', posterAlt: 'Alt', href: '/x', target: null, ariaLabel: null };
  it('omits entries lacking href, poster image or poster alt', () => {
    const items = visibleTrailers(
      [{ ...full, href: null }, { ...full, posterImage: '' }, { ...full, posterAlt: '  ' }, full],
      base,
    );
    expect(items).toEqual([
      {
        id: 'trailer-4',
        href: '/x',
        posterSrc: 'https://a.test/p.jpg',
        posterAlt: 'Alt',
        ariaLabel: 'Alt',
        target: '_self',
      },
    ]);
  });
  it('keeps stored id, aria label and target; absolute links open in a new tab by default', () => {
    expect(
      visibleTrailers(
        [
          { ...full, id: 'a', ariaLabel: 'Play', target: '_self', href: 'https://youtu.be/1' },
          { ...full, href: 'https://youtu.be/2' },
        ],
        base,
      ).map((i) => [i.id, i.ariaLabel, i.target]),
    ).toEqual([
      ['a', 'Play', '_self'],
      ['trailer-2', 'Alt', '_blank'],
    ]);
  });
});

describe('itineraryLine and durationLabel', () => {
  it('joins day cities, skipping blanks and consecutive repeats', () => {
    expect(itineraryLine(['Tokyo', 'Tokyo', null, ' ', 'Kyoto', 'Tokyo'])).toBe('Tokyo · Kyoto · Tokyo');
    expect(itineraryLine([])).toBe('');
  });
  it('localizes durations', () => {
    expect(durationLabel(12, 'es')).toBe('12 días');
    expect(durationLabel(1, 'de')).toBe('1 Tag');
    expect(durationLabel(9, 'fr')).toBe('9 jours');
    expect(durationLabel(9, 'pt')).toBe('9 days');
  });
});

describe('leadingPrice', () => {
  const today = '2026-06-15';
  it('is the lowest price per person among bookable offers, exactly', () => {
    expect(
      leadingPrice(
        [
          { status: 'Active', departureDate: '2026-06-20', pricePerPerson: '1000.10' },
          { status: 'Active', departureDate: '2026-07-20', pricePerPerson: '1000.05' },
          { status: 'Active', departureDate: '2026-06-19', pricePerPerson: '10.00' }, // inside lead time
          { status: 'Cancelled', departureDate: '2026-07-20', pricePerPerson: '5.00' },
        ],
        today,
      ),
    ).toBe('1000.05');
  });
  it('is null without a bookable offer', () => {
    expect(leadingPrice([], today)).toBeNull();
    expect(
      leadingPrice([{ status: 'Inactive', departureDate: '2027-01-01', pricePerPerson: '1.00' }], today),
    ).toBeNull();
  });
});

describe('productPath', () => {
  it('uses the language tour path segment, tours when the market has none', () => {
    const es = { code: 'es', tourPathSlugs: { es: 'viajes' } };
    expect(productPath(es, 'es', 'japon')).toBe('/es/es/viajes/japon');
    expect(productPath(es, 'en', 'japan')).toBe('/es/en/tours/japan');
  });
});

describe('consoleName', () => {
  const markets = [
    { code: 'es', defaultLanguage: 'es' },
    { code: 'de', defaultLanguage: 'de' },
  ];
  const t = (name: string) => ({ values: { name } });
  it('names a record in English, else in a market default language (markets by code), never first-locale Catalan', () => {
    expect(consoleName({ ca_ES: t('Àsia'), en_US: t('Asia'), es_ES: t('Asia (es)') }, markets)).toBe('Asia');
    expect(consoleName({ ca_ES: t('Àsia'), es_ES: t('Asia (es)'), de_DE: t('Asien') }, markets)).toBe('Asien');
    expect(consoleName({ ca_ES: t('Àsia'), es_ES: t('Ásia') }, markets)).toBe('Ásia');
    expect(consoleName({ ca_ES: t('Àsia') }, markets)).toBe('Àsia');
    expect(consoleName({}, markets)).toBe('');
  });
});
