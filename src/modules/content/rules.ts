// Pure content rules: asset URLs, label defaults, trailer visibility, trip lines, leading price,
// entity tags. No I/O, so each is unit-tested on its own.
import type { Trailer } from '../../db/schema/content.js';
import { assetUrl, isUrl } from '../../platform/urls.js';

export const LABEL_FIELDS = [
  'hero_button_primary',
  'hero_button_secondary',
  'newsletter_heading',
  'newsletter_name_placeholder',
  'newsletter_email_placeholder',
  'newsletter_button_text',
] as const;

export type LabelField = (typeof LABEL_FIELDS)[number];
export type RegionLabels = Record<LabelField, string>;

/** Built-in region labels per language; other languages use English. */
export const DEFAULT_LABELS: Record<string, RegionLabels> = {
  en: {
    hero_button_primary: 'Explore trips',
    hero_button_secondary: 'Talk to an expert',
    newsletter_heading: 'Get travel inspiration in your inbox',
    newsletter_name_placeholder: 'Your name',
    newsletter_email_placeholder: 'Your email address',
    newsletter_button_text: 'Subscribe',
  },
  es: {
    hero_button_primary: 'Explorar viajes',
    hero_button_secondary: 'Habla con un experto',
    newsletter_heading: 'Recibe inspiración para viajar en tu correo',
    newsletter_name_placeholder: 'Tu nombre',
    newsletter_email_placeholder: 'Tu correo electrónico',
    newsletter_button_text: 'Suscribirme',
  },
  ca: {
    hero_button_primary: 'Explora viatges',
    hero_button_secondary: 'Parla amb un expert',
    newsletter_heading: 'Rep inspiració per viatjar al teu correu',
    newsletter_name_placeholder: 'El teu nom',
    newsletter_email_placeholder: 'El teu correu electrònic',
    newsletter_button_text: "Subscriu-m'hi",
  },
  de: {
    hero_button_primary: 'Reisen entdecken',
    hero_button_secondary: 'Mit einem Experten sprechen',
    newsletter_heading: 'Reiseinspiration direkt in Ihr Postfach',
    newsletter_name_placeholder: 'Ihr Name',
    newsletter_email_placeholder: 'Ihre E-Mail-Adresse',
    newsletter_button_text: 'Abonnieren',
  },
  fr: {
    hero_button_primary: 'Découvrir les voyages',
    hero_button_secondary: 'Parler à un expert',
    newsletter_heading: "Recevez l'inspiration voyage dans votre boîte mail",
    newsletter_name_placeholder: 'Votre nom',
    newsletter_email_placeholder: 'Votre adresse e-mail',
    newsletter_button_text: "S'abonner",
  },
  it: {
    hero_button_primary: 'Scopri i viaggi',
    hero_button_secondary: 'Parla con un esperto',
    newsletter_heading: 'Ricevi ispirazione di viaggio nella tua casella',
    newsletter_name_placeholder: 'Il tuo nome',
    newsletter_email_placeholder: 'Il tuo indirizzo email',
    newsletter_button_text: 'Iscriviti',
  },
};

/** Each field independently: the stored value when it is a non-blank string, else the default. */
export function resolveLabels(
  stored: Partial<Record<LabelField, string | null>> | undefined,
  lang: string,
): RegionLabels {
  const defaults = DEFAULT_LABELS[lang] ?? DEFAULT_LABELS.en!;
  const out = {} as RegionLabels;
  for (const field of LABEL_FIELDS) {
    const v = stored?.[field];
    out[field] = typeof v === 'string' && v.trim() !== '' ? v : defaults[field];
  }
  return out;
}

export interface TrailerItem {
  id: string;
  href: string;
  posterSrc: string;
  posterAlt: string;
  ariaLabel: string;
  target: '_self' | '_blank';
}

const blank = (v: string | null | undefined): boolean => v === null || v === undefined || v.trim() === '';

/**
 * Trailers as served: entries lacking href, poster image or poster alt are left out. Defaults:
 * id `trailer-<position in the stored list, from 1>`, ariaLabel the poster alt, target `_blank`
 * for absolute links (another site) and `_self` for paths on the site.
 */
export function visibleTrailers(trailers: Trailer[], assetBase: string): TrailerItem[] {
  const items: TrailerItem[] = [];
  trailers.forEach((t, i) => {
    if (blank(t.href) || blank(t.posterImage) || blank(t.posterAlt)) return;
    const href = t.href!.trim();
    items.push({
      id: blank(t.id) ? `trailer-${i + 1}` : t.id!,
      href,
      posterSrc: assetUrl(assetBase, t.posterImage)!,
      posterAlt: t.posterAlt!,
      ariaLabel: blank(t.ariaLabel) ? t.posterAlt! : t.ariaLabel!,
      target: t.target ?? (isUrl(href) ? '_blank' : '_self'),
    });
  });
  return items;
}

/** Day cities in order, blanks skipped and consecutive repeats collapsed, joined by ' · '. */
export function itineraryLine(cities: (string | null)[]): string {
  const out: string[] = [];
  for (const c of cities) {
    const city = c?.trim();
    if (city && out.at(-1) !== city) out.push(city);
  }
  return out.join(' · ');
}

const DAY_WORDS: Record<string, [one: string, many: string]> = {
  en: ['day', 'days'],
  es: ['día', 'días'],
  ca: ['dia', 'dies'],
  de: ['Tag', 'Tage'],
  fr: ['jour', 'jours'],
  it: ['giorno', 'giorni'],
};

/** "12 days", "12 días", ... (English for languages without built-in words). */
export function durationLabel(days: number, lang: string): string {
  const [one, many] = DAY_WORDS[lang] ?? DAY_WORDS.en!;
  return `${days} ${days === 1 ? one : many}`;
}

/**
 * The name the console shows for a record with texts per locale: its English text, else the
 * text in a market's default language (markets by code), else any; the console speaks English.
 */
export function consoleName(
  texts: Record<string, { values: Record<string, unknown> }>,
  markets: readonly { code: string; defaultLanguage: string }[],
): string {
  const name = (locale: string | undefined) => {
    const v = locale ? texts[locale]?.values.name : undefined;
    return typeof v === 'string' && v.trim() ? v : undefined;
  };
  const locales = Object.keys(texts).sort();
  const byCode = [...markets].sort((a, b) => a.code.localeCompare(b.code));
  return (
    name(locales.find((l) => l.startsWith('en_') && name(l))) ??
    byCode.map((m) => name(`${m.defaultLanguage}_${m.code.toUpperCase()}`)).find(Boolean) ??
    locales.map((l) => name(l)).find(Boolean) ??
    ''
  );
}
