// Market resolution: letters-only, case-insensitive segments; market first, then language.
import { AppError } from '../../platform/errors.js';
import type { Market } from './repository.js';

export interface MarketScope {
  market: Market;
  /** lower-case language code */
  lang: string;
  /** `<lang>_<MARKET>`, e.g. ca_ES */
  locale: string;
}

const LETTERS = /^[A-Za-z]+$/;

export function localeOf(lang: string, marketCode: string): string {
  return `${lang.toLowerCase()}_${marketCode.toUpperCase()}`;
}

/** `opts.inactive`: a market that is not active yet resolves too (a signed preview only). */
export function resolveMarketCode(
  segment: string,
  markets: ReadonlyMap<string, Market>,
  opts: { inactive?: boolean } = {},
): Market {
  const code = segment.toLowerCase();
  const market = LETTERS.test(segment) ? markets.get(code) : undefined;
  if (!market) throw new AppError(404, 'market_not_found', `Market '${segment}' not found.`);
  if (!market.isActive && !opts.inactive) {
    throw new AppError(403, 'market_inactive', `Market '${market.code}' is not available.`);
  }
  return market;
}

export function resolveScope(
  marketSegment: string,
  langSegment: string,
  markets: ReadonlyMap<string, Market>,
  opts: { inactive?: boolean } = {},
): MarketScope {
  const market = resolveMarketCode(marketSegment, markets, opts);
  const lang = resolveLanguage(market, langSegment);
  return { market, lang, locale: localeOf(lang, market.code) };
}

/** A language of the market, lower-cased; 400 language_not_supported otherwise. */
export function resolveLanguage(market: Pick<Market, 'code' | 'languages'>, langSegment: string): string {
  const lang = langSegment.toLowerCase();
  if (!LETTERS.test(langSegment) || !market.languages.includes(lang)) {
    throw new AppError(
      400,
      'language_not_supported',
      `Language '${langSegment}' is not supported in market '${market.code}'. Supported languages: ${market.languages.join(', ')}.`,
    );
  }
  return lang;
}

/** The frontend path of a product page: /<market>/<lang>/<localized tour path segment>/<translated slug>. */
export function productPath(market: Pick<Market, 'code' | 'tourPathSlugs'>, lang: string, urlSlug: string): string {
  return `/${market.code}/${lang}/${market.tourPathSlugs[lang] || 'tours'}/${urlSlug}`;
}

/**
 * The market's departure airports with their name and city in `lang`, falling back to the
 * market's default language, then English, then the stored text (catalog textLanguages).
 */
export function airportsIn(
  market: Pick<Market, 'airports' | 'defaultLanguage'>,
  lang: string,
): { iata_code: string; name: string; city: string; is_primary: boolean }[] {
  const langs = textLanguages(lang, market.defaultLanguage);
  return market.airports.map((a) => {
    const pick = (field: 'name' | 'city') => langs.map((l) => a.texts[l]?.[field]).find((v) => v != null) ?? a[field];
    return { iata_code: a.iata_code, name: pick('name'), city: pick('city'), is_primary: a.is_primary };
  });
}

/**
 * The languages a supply text (activity, hotel, transfer, airport) is looked up in, in order: the
 * requested language, the market's default language, English. A field none of them has comes from
 * the base row (docs/decisions.md, "Supply translations").
 */
export function textLanguages(lang: string, defaultLanguage?: string): string[] {
  return [...new Set([lang, defaultLanguage ?? lang, 'en'].map((l) => l.toLowerCase()))];
}
