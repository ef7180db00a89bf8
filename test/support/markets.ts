// Minimal market rows for tests that do not need the whole catalog import.
import type { Database } from '../../src/db/database.js';
import { airports, marketAirports, markets } from '../../src/db/schema/index.js';

export async function seedMarkets(database: Database): Promise<void> {
  await database.db.insert(airports).values([
    { iataCode: 'MAD', name: 'Adolfo Suárez Madrid-Barajas', city: 'Madrid', country: 'Spain' },
    { iataCode: 'BCN', name: 'Josep Tarradellas Barcelona-El Prat', city: 'Barcelona', country: 'Spain' },
    { iataCode: 'FRA', name: 'Frankfurt am Main', city: 'Frankfurt', country: 'Germany' },
  ]);
  const rows = await database.db
    .insert(markets)
    .values([
      {
        code: 'es',
        name: 'España',
        defaultLanguage: 'es',
        languages: ['es', 'ca', 'en'],
        tourPathSlugs: { es: 'viajes', ca: 'viatges', en: 'tours' },
        currencyCode: 'EUR',
        currencyName: 'Euro',
        currencySymbol: '€',
        timezone: 'Europe/Madrid',
      },
      {
        code: 'de',
        name: 'Deutschland',
        defaultLanguage: 'de',
        languages: ['de'],
        tourPathSlugs: { de: 'reisen' },
        currencyCode: 'EUR',
        currencyName: 'Euro',
        currencySymbol: '€',
        timezone: 'Europe/Berlin',
      },
      {
        code: 'fr',
        name: 'France',
        isActive: false,
        defaultLanguage: 'fr',
        languages: ['fr'],
        currencyCode: 'EUR',
        currencyName: 'Euro',
        currencySymbol: '€',
        timezone: 'Europe/Paris',
      },
    ])
    .returning();
  const es = rows.find((r) => r.code === 'es')!;
  const de = rows.find((r) => r.code === 'de')!;
  await database.db.insert(marketAirports).values([
    { marketId: es.id, iataCode: 'MAD', isPrimary: true, sortOrder: 0 },
    { marketId: es.id, iataCode: 'BCN', isPrimary: false, sortOrder: 1 },
    { marketId: de.id, iataCode: 'FRA', isPrimary: true, sortOrder: 0 },
  ]);
}
