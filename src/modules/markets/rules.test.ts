import { describe, expect, it } from 'vitest';
import type { Market } from './repository.js';
import { resolveScope } from './rules.js';

const market = (code: string, languages: string[], isActive = true) =>
  ({ id: 1, code, languages, isActive, defaultLanguage: languages[0] }) as Market;
const markets = new Map([
  ['es', market('es', ['es', 'ca', 'en'])],
  ['fr', market('fr', ['fr'], false)],
]);

describe('resolveScope', () => {
  it('resolves case-insensitive segments to a locale', () => {
    expect(resolveScope('Es', 'CA', markets)).toMatchObject({ lang: 'ca', locale: 'ca_ES' });
  });
  it('checks the market before the language', () => {
    expect(() => resolveScope('xx', '1', markets)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => resolveScope('fr', 'de', markets)).toThrow(expect.objectContaining({ status: 403 }));
  });
  it('lists the supported languages when the language is not supported', () => {
    expect(() => resolveScope('es', 'de', markets)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'language_not_supported',
        message: expect.stringContaining('es, ca, en'),
      }),
    );
    expect(() => resolveScope('es', 'e5', markets)).toThrow(
      expect.objectContaining({ code: 'language_not_supported' }),
    );
  });
});
