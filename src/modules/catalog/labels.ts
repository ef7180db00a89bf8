// Built-in UI strings of the catalog per language; English is used for a language not listed.

export interface ConfiguratorLabels {
  information: string;
  origin: string;
  travelers: string;
  rooms: string;
  choose_date: string;
  configure_trip: string;
  help_text: string;
  per_person: string;
}

interface LanguagePack {
  configurator: ConfiguratorLabels;
  activityTiers: Record<'included' | 'extra' | 'substitution', string>;
  stayTiers: Record<'selection' | 'luxury' | 'grand_luxury', string>;
  adults: (n: number) => string;
  children: (n: number) => string;
}

const plural = (one: string, many: string) => (n: number) => `${n} ${n === 1 ? one : many}`;

const packs: Record<string, LanguagePack> = {
  en: {
    configurator: {
      information: 'Information',
      origin: 'Departure airport',
      travelers: 'Travellers',
      rooms: 'Rooms',
      choose_date: 'Choose your departure date',
      configure_trip: 'Configure your trip',
      help_text: 'Prices are per person in a double room, flights included.',
      per_person: 'per person',
    },
    activityTiers: { included: 'Included', extra: 'Optional extra', substitution: 'Alternative' },
    stayTiers: { selection: 'Selection', luxury: 'Luxury', grand_luxury: 'Grand Luxury' },
    adults: plural('adult', 'adults'),
    children: plural('child', 'children'),
  },
  es: {
    configurator: {
      information: 'Información',
      origin: 'Aeropuerto de salida',
      travelers: 'Viajeros',
      rooms: 'Habitaciones',
      choose_date: 'Elige tu fecha de salida',
      configure_trip: 'Configura tu viaje',
      help_text: 'Precios por persona en habitación doble, vuelos incluidos.',
      per_person: 'por persona',
    },
    activityTiers: { included: 'Incluida', extra: 'Extra opcional', substitution: 'Alternativa' },
    stayTiers: { selection: 'Selección', luxury: 'Lujo', grand_luxury: 'Gran Lujo' },
    adults: plural('adulto', 'adultos'),
    children: plural('niño', 'niños'),
  },
  ca: {
    configurator: {
      information: 'Informació',
      origin: 'Aeroport de sortida',
      travelers: 'Viatgers',
      rooms: 'Habitacions',
      choose_date: 'Tria la data de sortida',
      configure_trip: 'Configura el teu viatge',
      help_text: 'Preus per persona en habitació doble, vols inclosos.',
      per_person: 'per persona',
    },
    activityTiers: { included: 'Inclosa', extra: 'Extra opcional', substitution: 'Alternativa' },
    stayTiers: { selection: 'Selecció', luxury: 'Luxe', grand_luxury: 'Gran Luxe' },
    adults: plural('adult', 'adults'),
    children: plural('nen', 'nens'),
  },
  de: {
    configurator: {
      information: 'Informationen',
      origin: 'Abflughafen',
      travelers: 'Reisende',
      rooms: 'Zimmer',
      choose_date: 'Wählen Sie Ihren Abreisetermin',
      configure_trip: 'Reise zusammenstellen',
      help_text: 'Preise pro Person im Doppelzimmer, inklusive Flüge.',
      per_person: 'pro Person',
    },
    activityTiers: { included: 'Inklusive', extra: 'Optionales Extra', substitution: 'Alternative' },
    stayTiers: { selection: 'Selection', luxury: 'Luxus', grand_luxury: 'Grand Luxus' },
    adults: plural('Erwachsener', 'Erwachsene'),
    children: plural('Kind', 'Kinder'),
  },
  fr: {
    configurator: {
      information: 'Informations',
      origin: 'Aéroport de départ',
      travelers: 'Voyageurs',
      rooms: 'Chambres',
      choose_date: 'Choisissez votre date de départ',
      configure_trip: 'Configurez votre voyage',
      help_text: 'Prix par personne en chambre double, vols inclus.',
      per_person: 'par personne',
    },
    activityTiers: { included: 'Incluse', extra: 'Extra en option', substitution: 'Alternative' },
    stayTiers: { selection: 'Sélection', luxury: 'Luxe', grand_luxury: 'Grand Luxe' },
    adults: plural('adulte', 'adultes'),
    children: plural('enfant', 'enfants'),
  },
  it: {
    configurator: {
      information: 'Informazioni',
      origin: 'Aeroporto di partenza',
      travelers: 'Viaggiatori',
      rooms: 'Camere',
      choose_date: 'Scegli la data di partenza',
      configure_trip: 'Configura il tuo viaggio',
      help_text: 'Prezzi a persona in camera doppia, voli inclusi.',
      per_person: 'a persona',
    },
    activityTiers: { included: 'Inclusa', extra: 'Extra facoltativo', substitution: 'Alternativa' },
    stayTiers: { selection: 'Selezione', luxury: 'Lusso', grand_luxury: 'Gran Lusso' },
    adults: plural('adulto', 'adulti'),
    children: plural('bambino', 'bambini'),
  },
};

export function labelsFor(lang: string): LanguagePack {
  return packs[lang] ?? packs.en;
}

/** "2A" -> "2 adults", "2A+1CH" -> "2 adults + 1 child" in the language. */
export function roomTypeLabel(code: string, lang: string): string {
  const m = /^(\d+)A(?:\+(\d+)CH)?$/.exec(code);
  if (!m) return code;
  const pack = labelsFor(lang);
  const adults = pack.adults(Number(m[1]));
  return m[2] ? `${adults} + ${pack.children(Number(m[2]))}` : adults;
}

const monthFormats = new Map<string, Intl.DateTimeFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Localized month name with an upper-case first letter ("Enero", "Januar", "January"). */
export function monthLabel(lang: string, year: number, month: number): string {
  let f = monthFormats.get(lang);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, { month: 'long', timeZone: 'UTC' });
    monthFormats.set(lang, f);
  }
  const name = f.format(new Date(Date.UTC(year, month - 1, 1)));
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
}

/** Localized short weekday and day of month ("sáb 9", "Sa., 9.", "9 Sat"). */
export function dayLabel(lang: string, isoDate: string): string {
  let f = dayFormats.get(lang);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, { weekday: 'short', day: 'numeric', timeZone: 'UTC' });
    dayFormats.set(lang, f);
  }
  return f.format(new Date(`${isoDate}T00:00:00Z`));
}
