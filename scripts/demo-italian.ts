// The Italian texts of the demo's market still being prepared (`it`, not active): one tour,
// Morocco's imperial cities, written by hand as a draft an editor would preview before launch.
// Used by build-demo-catalog.ts, which adds them as the `it` translations of the tour's supply
// (activities, hotels, transfers, airports) and as the `it` market product's own texts.

export const ITALIAN_TOUR = 'morocco-imperial-cities';

export const italianCities: Record<string, string> = {
  Casablanca: 'Casablanca',
  Fes: 'Fès',
  Marrakesh: 'Marrakech',
  Rome: 'Roma',
  Milan: 'Milano',
};

export const italianCountries: Record<string, string> = { Morocco: 'Marocco', Italy: 'Italia' };

export const italianAirports: Record<string, string> = {
  FCO: 'Aeroporto di Roma-Fiumicino Leonardo da Vinci',
  MXP: 'Aeroporto di Milano Malpensa',
  CMN: 'Aeroporto internazionale Mohammed V',
};

export const italianActivities: Record<string, string> = {
  'Hassan II mosque': 'Moschea Hassan II',
  'Fes el-Bali medina and tanneries': 'Medina di Fès el-Bali e concerie',
  'Meknes and Volubilis': 'Meknès e Volubilis',
  'Moroccan cooking class': 'Corso di cucina marocchina',
  'Jemaa el-Fnaa and the souks': 'Piazza Jemaa el-Fna e i suq',
  'Majorelle garden': 'Giardino Majorelle',
  'Agafay desert dinner under the stars': 'Cena sotto le stelle nel deserto di Agafay',
  'Hammam and spa afternoon': 'Pomeriggio di hammam e spa',
};

export const italianSupply = {
  hotel: (tier: number, stars: number, city: string) =>
    `Soggiorno ${['confortevole', 'elegante', 'eccezionale'][tier]} in un ${stars} stelle a ${city}.`,
  activity: {
    highlight: (c: string) => `Uno dei luoghi imperdibili di ${c}`,
    smallGroups: 'Piccoli gruppi con guida locale',
    guide: 'Guida locale',
    languages: 'In inglese e spagnolo',
    halfDay: 'Mezza giornata',
    hours: 'Circa 4 ore',
  },
  transfer: {
    shared: (c: string) => [
      `Aeroporto di ${c} – hotel (navetta condivisa)`,
      `Navetta condivisa dall’aeroporto di ${c} al tuo hotel.`,
    ],
    private: (c: string) => [
      `Aeroporto di ${c} – hotel (auto privata)`,
      `Auto privata con autista dall’aeroporto di ${c} direttamente al tuo hotel.`,
    ],
    coach: (a: string, b: string) => [`Da ${a} a ${b} in pullman`],
    minivan: (a: string, b: string) => [`Da ${a} a ${b} in minivan privato`],
  },
};

/** The `it` market product's texts; the itinerary's days in order (the tour's 8 days). */
export const italianProduct = {
  title: 'Marocco: le città imperiali',
  subtitle: 'Casablanca, Rabat, Fès e Marrakech',
  short_description: '8 giorni tra Casablanca, Fès e Marrakech.',
  long_description:
    'Otto giorni tra Casablanca, Fès e Marrakech con guide locali, riad scelti con cura e voli inclusi da Roma e Milano.',
  highlights: ['1 notte a Casablanca', '3 notti a Fès', '3 notti a Marrakech'],
  destination_info:
    'Passaporto con almeno sei mesi di validità. Verifica i requisiti di ingresso del Marocco prima di partire.',
  url_slug: 'marocco-citta-imperiali',
  country_name: 'Marocco',
  days: [
    [
      'Arrivo a Casablanca',
      'Arrivo a Casablanca, accoglienza in aeroporto e trasferimento in hotel. In serata, la moschea Hassan II sull’oceano.',
    ],
    [
      'Da Casablanca a Fès',
      'In mattinata partenza da Casablanca verso Fès, passando per Rabat. Arrivo e sistemazione.',
    ],
    [
      'Fès: medina di Fès el-Bali e concerie',
      'Oggi: la medina di Fès el-Bali e le concerie. Pomeriggio libero per continuare a esplorare.',
    ],
    ['Fès: Meknès e Volubilis', 'Escursione a Meknès e alle rovine romane di Volubilis. Rientro a Fès in serata.'],
    ['Da Fès a Marrakech', 'Partenza da Fès verso Marrakech attraverso il Medio Atlante. Arrivo e sistemazione.'],
    [
      'Marrakech: piazza Jemaa el-Fna e i suq',
      'Oggi: piazza Jemaa el-Fna e i suq. Pomeriggio libero per continuare a esplorare.',
    ],
    ['Marrakech: giardino Majorelle', 'Visita del giardino Majorelle e pomeriggio libero nella città rossa.'],
    ['Volo di ritorno', 'Trasferimento in aeroporto e volo di ritorno a casa.'],
  ] as [string, string][],
};
