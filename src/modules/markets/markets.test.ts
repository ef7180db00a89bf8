import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedMarkets } from '../../../test/support/markets.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedMarkets(t.database);
});
afterAll(() => t.close());

describe('GET /api/:market/config', () => {
  it('returns the market configuration, case-insensitively', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ES/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        code: 'es',
        name: 'España',
        locale: 'es_ES',
        supported_languages: ['es', 'ca', 'en'],
        tour_path_slugs: { es: 'viajes', ca: 'viatges', en: 'tours' },
        currency: { code: 'EUR', name: 'Euro' },
        timezone: 'Europe/Madrid',
        departure_airports: [
          { iata_code: 'MAD', name: 'Adolfo Suárez Madrid-Barajas', city: 'Madrid', is_primary: true },
          { iata_code: 'BCN', name: 'Josep Tarradellas Barcelona-El Prat', city: 'Barcelona', is_primary: false },
        ],
      },
    });
  });

  it('answers 404 market_not_found for an unknown or non-letter market', async () => {
    for (const code of ['xx', 'e1']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/${code}/config` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: 'market_not_found' });
    }
  });

  it('answers 403 market_inactive for an inactive market', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/fr/config' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, error: 'market_inactive' });
  });
});

describe('unknown routes', () => {
  it('answer 404 in the common envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: 'not_found' });
  });
});
