// Writes data/demo/catalog.json, the demo catalog, from the compact tour descriptions below.
// Run after editing: `npx tsx scripts/build-demo-catalog.ts`. Offer dates are written relative
// to the day of loading ("today+35"); the loader resolves them, so the demo never goes stale.
import { writeFileSync } from 'node:fs';
import {
  ITALIAN_TOUR,
  italianActivities,
  italianAirports,
  italianCities,
  italianCountries,
  italianProduct,
  italianSupply,
} from './demo-italian.js';
import { activityNames, airportNames, cities, countries, inLang, type Lang, TRANSLATED } from './demo-translations.js';

type L10n = Record<Lang, string>;

interface Stop {
  city: string;
  country?: string;
  nights: number;
  /** [selection, luxury, grand luxury] hotel names; luxury/grand optional */
  hotels?: [string, string?, string?];
  included: string[];
  extra?: [string, string]; // name, EUR per person ('' = no rate)
  substitution?: string;
}

interface Tour {
  code: string;
  country: string; // slug
  countryNames: L10n;
  countryEn: string;
  days: number;
  landPerPersonEur: number;
  titles: L10n;
  subtitles: L10n;
  stops: Stop[];
  package?: string;
  rateCurrency?: string;
}

const tours: Tour[] = [
  {
    code: 'japan-essentials',
    country: 'japan',
    countryEn: 'Japan',
    countryNames: { es: 'Japón', ca: 'Japó', en: 'Japan', de: 'Japan', fr: 'Japon' },
    days: 12,
    landPerPersonEur: 2350,
    titles: {
      es: 'Japón esencial',
      ca: 'Japó essencial',
      en: 'Japan Essentials',
      de: 'Japan entdecken',
      fr: 'L’essentiel du Japon',
    },
    subtitles: {
      es: 'Tokio, Hakone, Kioto y Osaka',
      ca: 'Tòquio, Hakone, Kyoto i Osaka',
      en: 'Tokyo, Hakone, Kyoto and Osaka',
      de: 'Tokio, Hakone, Kyoto und Osaka',
      fr: 'Tokyo, Hakone, Kyoto et Osaka',
    },
    stops: [
      {
        city: 'Tokyo',
        nights: 4,
        hotels: ['Hotel Gracery Shinjuku', 'The Prince Gallery Tokyo Kioicho', 'Aman Tokyo'],
        included: ['Asakusa and Senso-ji temple walk', 'Meiji shrine and Harajuku', 'Tsukiji outer market tasting'],
        extra: ['Sumo morning practice', '95'],
        substitution: 'Tea ceremony in Yanaka',
      },
      {
        city: 'Hakone',
        nights: 1,
        hotels: ['Hakone Yumoto Onsen Hotel', 'Gora Kadan'],
        included: ['Lake Ashi cruise and Owakudani ropeway'],
        extra: ['Private onsen session', '60'],
      },
      {
        city: 'Kyoto',
        nights: 4,
        hotels: ['Hotel Granvia Kyoto', 'The Ritz-Carlton Kyoto', 'Aman Kyoto'],
        included: ['Fushimi Inari shrine at sunrise', 'Kinkaku-ji and Ryoan-ji', 'Arashiyama bamboo grove'],
        extra: ['Nara day trip', '120'],
        substitution: 'Gion evening walk with a maiko dinner',
      },
      {
        city: 'Osaka',
        nights: 2,
        hotels: ['Cross Hotel Osaka', 'Conrad Osaka'],
        included: ['Dotonbori street-food tour'],
        extra: ['Himeji castle excursion', ''],
      },
    ],
  },
  {
    code: 'japan-alps-and-kyoto',
    country: 'japan',
    countryEn: 'Japan',
    countryNames: { es: 'Japón', ca: 'Japó', en: 'Japan', de: 'Japan', fr: 'Japon' },
    days: 10,
    landPerPersonEur: 2190,
    titles: {
      es: 'Alpes japoneses y Kioto',
      ca: 'Alps japonesos i Kyoto',
      en: 'Japanese Alps and Kyoto',
      de: 'Japanische Alpen und Kyoto',
      fr: 'Alpes japonaises et Kyoto',
    },
    subtitles: {
      es: 'Takayama, Shirakawa-go y Kanazawa',
      ca: 'Takayama, Shirakawa-go i Kanazawa',
      en: 'Takayama, Shirakawa-go and Kanazawa',
      de: 'Takayama, Shirakawa-go und Kanazawa',
      fr: 'Takayama, Shirakawa-go et Kanazawa',
    },
    stops: [
      {
        city: 'Tokyo',
        nights: 2,
        hotels: ['Hotel Gracery Shinjuku', 'The Prince Gallery Tokyo Kioicho', 'Aman Tokyo'],
        included: ['Asakusa and Senso-ji temple walk'],
        extra: ['Sumo morning practice', '95'],
      },
      {
        city: 'Takayama',
        nights: 2,
        hotels: ['Hida Hotel Plaza', 'Honjin Hiranoya Kachoan'],
        included: ['Takayama morning market and old town', 'Shirakawa-go thatched villages'],
        extra: ['Hida beef tasting dinner', '75'],
      },
      {
        city: 'Kanazawa',
        nights: 2,
        hotels: ['Hotel Nikko Kanazawa', 'Hyatt Centric Kanazawa'],
        included: ['Kenroku-en garden and geisha district'],
        substitution: 'Gold-leaf workshop',
      },
      {
        city: 'Kyoto',
        nights: 3,
        hotels: ['Hotel Granvia Kyoto', 'The Ritz-Carlton Kyoto', 'Aman Kyoto'],
        included: ['Fushimi Inari shrine at sunrise', 'Kinkaku-ji and Ryoan-ji'],
        extra: ['Nara day trip', '120'],
      },
    ],
  },
  {
    code: 'vietnam-north-to-south',
    country: 'vietnam',
    countryEn: 'Vietnam',
    countryNames: { es: 'Vietnam', ca: 'Vietnam', en: 'Vietnam', de: 'Vietnam', fr: 'Viêt Nam' },
    days: 14,
    landPerPersonEur: 1650,
    rateCurrency: 'USD',
    titles: {
      es: 'Vietnam de norte a sur',
      ca: 'Vietnam de nord a sud',
      en: 'Vietnam from North to South',
      de: 'Vietnam von Nord nach Süd',
      fr: 'Le Viêt Nam du nord au sud',
    },
    subtitles: {
      es: 'Hanói, bahía de Halong, Hoi An y el delta del Mekong',
      ca: 'Hanoi, badia d’Halong, Hoi An i el delta del Mekong',
      en: 'Hanoi, Halong Bay, Hoi An and the Mekong Delta',
      de: 'Hanoi, Halong-Bucht, Hoi An und Mekong-Delta',
      fr: 'Hanoï, baie d’Halong, Hoi An et delta du Mékong',
    },
    stops: [
      {
        city: 'Hanoi',
        nights: 3,
        hotels: ['Hotel de l’Opera Hanoi', 'Capella Hanoi', 'Sofitel Legend Metropole Hanoi'],
        included: ['Old Quarter cyclo ride', 'Temple of Literature and Ho Chi Minh mausoleum'],
        extra: ['Water puppet show', '25'],
      },
      {
        city: 'Halong Bay',
        nights: 1,
        hotels: ['Indochina Junk cruise', 'Heritage Line Violet cruise'],
        included: ['Overnight cruise among the karst islands'],
        substitution: 'Kayaking in Lan Ha bay',
      },
      {
        city: 'Hoi An',
        nights: 4,
        hotels: ['Little Riverside Hoi An', 'Four Seasons The Nam Hai', 'Capella Hoi An'],
        included: ['Ancient town lantern walk', 'My Son sanctuary'],
        extra: ['Cooking class with market visit', '45'],
      },
      {
        city: 'Ho Chi Minh City',
        nights: 5,
        hotels: ['Hotel des Arts Saigon', 'Park Hyatt Saigon'],
        included: ['Cu Chi tunnels', 'Mekong Delta boat day'],
        extra: ['Saigon street food by scooter', '55'],
      },
    ],
  },
  {
    code: 'thailand-temples-and-islands',
    country: 'thailand',
    countryEn: 'Thailand',
    countryNames: { es: 'Tailandia', ca: 'Tailàndia', en: 'Thailand', de: 'Thailand', fr: 'Thaïlande' },
    days: 11,
    landPerPersonEur: 1490,
    titles: {
      es: 'Tailandia: templos e islas',
      ca: 'Tailàndia: temples i illes',
      en: 'Thailand Temples and Islands',
      de: 'Thailand: Tempel und Inseln',
      fr: 'Thaïlande, temples et îles',
    },
    subtitles: {
      es: 'Bangkok, Chiang Mai y Krabi',
      ca: 'Bangkok, Chiang Mai i Krabi',
      en: 'Bangkok, Chiang Mai and Krabi',
      de: 'Bangkok, Chiang Mai und Krabi',
      fr: 'Bangkok, Chiang Mai et Krabi',
    },
    stops: [
      {
        city: 'Bangkok',
        nights: 3,
        hotels: ['Chatrium Riverside Bangkok', 'Mandarin Oriental Bangkok', 'The Peninsula Bangkok'],
        included: ['Grand Palace and Wat Pho', 'Floating market of Damnoen Saduak'],
        extra: ['Chao Phraya dinner cruise', '65'],
      },
      {
        city: 'Chiang Mai',
        nights: 3,
        hotels: ['Akyra Manor Chiang Mai', 'Four Seasons Chiang Mai'],
        included: ['Doi Suthep temple', 'Ethical elephant sanctuary'],
        substitution: 'Thai cooking class on a farm',
      },
      {
        city: 'Krabi',
        nights: 4,
        hotels: ['Dusit Thani Krabi Beach Resort', 'Rayavadee', 'Phulay Bay, a Ritz-Carlton Reserve'],
        included: ['Four islands longtail boat tour'],
        extra: ['Phi Phi islands speedboat day', '85'],
      },
    ],
  },
  {
    code: 'india-golden-triangle',
    country: 'india',
    countryEn: 'India',
    countryNames: { es: 'India', ca: 'Índia', en: 'India', de: 'Indien', fr: 'Inde' },
    days: 9,
    landPerPersonEur: 1180,
    package: 'Golden Triangle land package (hotels, guide and driver)',
    titles: {
      es: 'India: el Triángulo de Oro',
      ca: 'Índia: el Triangle d’Or',
      en: 'India’s Golden Triangle',
      de: 'Indien: Das Goldene Dreieck',
      fr: 'Inde, le Triangle d’or',
    },
    subtitles: {
      es: 'Delhi, Agra y Jaipur',
      ca: 'Delhi, Agra i Jaipur',
      en: 'Delhi, Agra and Jaipur',
      de: 'Delhi, Agra und Jaipur',
      fr: 'Delhi, Agra et Jaipur',
    },
    stops: [
      {
        city: 'Delhi',
        nights: 3,
        included: ['Old Delhi rickshaw ride and Jama Masjid', 'Qutub Minar and Humayun’s tomb'],
      },
      { city: 'Agra', nights: 2, included: ['Taj Mahal at sunrise', 'Agra Fort'], extra: ['Fatehpur Sikri', '35'] },
      {
        city: 'Jaipur',
        nights: 3,
        included: ['Amber Fort', 'City Palace and Hawa Mahal'],
        substitution: 'Block-printing workshop',
      },
    ],
  },
  {
    code: 'peru-inca-trail',
    country: 'peru',
    countryEn: 'Peru',
    countryNames: { es: 'Perú', ca: 'Perú', en: 'Peru', de: 'Peru', fr: 'Pérou' },
    days: 12,
    landPerPersonEur: 1990,
    rateCurrency: 'USD',
    titles: {
      es: 'Perú y el Camino Inca',
      ca: 'Perú i el Camí Inca',
      en: 'Peru and the Inca Trail',
      de: 'Peru und der Inka-Pfad',
      fr: 'Le Pérou et le chemin de l’Inca',
    },
    subtitles: {
      es: 'Lima, Cuzco, Valle Sagrado y Machu Picchu',
      ca: 'Lima, Cusco, Vall Sagrada i Machu Picchu',
      en: 'Lima, Cusco, the Sacred Valley and Machu Picchu',
      de: 'Lima, Cusco, Heiliges Tal und Machu Picchu',
      fr: 'Lima, Cuzco, Vallée sacrée et Machu Picchu',
    },
    stops: [
      {
        city: 'Lima',
        nights: 2,
        hotels: ['Casa Andina Select Miraflores', 'Belmond Miraflores Park', 'Country Club Lima Hotel'],
        included: ['Colonial Lima and Miraflores'],
        extra: ['Peruvian cuisine tasting menu', '90'],
      },
      {
        city: 'Cusco',
        nights: 3,
        hotels: ['Hotel Costa del Sol Cusco', 'Palacio del Inka', 'Belmond Monasterio'],
        included: ['Cusco cathedral and Qorikancha', 'Sacsayhuamán fortress'],
        substitution: 'Rainbow mountain hike',
      },
      {
        city: 'Sacred Valley',
        nights: 2,
        hotels: ['Casa Andina Premium Valle Sagrado', 'Explora Valle Sagrado'],
        included: ['Pisac market and Ollantaytambo'],
        extra: ['Maras salt pans and Moray by bike', '70'],
      },
      {
        city: 'Machu Picchu',
        nights: 4,
        hotels: ['El MaPi by Inkaterra', 'Sumaq Machu Picchu', 'Belmond Sanctuary Lodge'],
        included: ['Inca Trail short trek to Machu Picchu', 'Guided visit of the citadel'],
        extra: ['Huayna Picchu climb', '65'],
      },
    ],
  },
  {
    code: 'mexico-yucatan-and-chiapas',
    country: 'mexico',
    countryEn: 'Mexico',
    countryNames: { es: 'México', ca: 'Mèxic', en: 'Mexico', de: 'Mexiko', fr: 'Mexique' },
    days: 10,
    landPerPersonEur: 1420,
    rateCurrency: 'USD',
    titles: {
      es: 'México: Yucatán y Chiapas',
      ca: 'Mèxic: Yucatán i Chiapas',
      en: 'Mexico: Yucatán and Chiapas',
      de: 'Mexiko: Yucatán und Chiapas',
      fr: 'Mexique, Yucatán et Chiapas',
    },
    subtitles: {
      es: 'Palenque, Mérida, Chichén Itzá y cenotes',
      ca: 'Palenque, Mérida, Chichén Itzá i cenots',
      en: 'Palenque, Mérida, Chichén Itzá and cenotes',
      de: 'Palenque, Mérida, Chichén Itzá und Cenoten',
      fr: 'Palenque, Mérida, Chichén Itzá et cénotes',
    },
    stops: [
      {
        city: 'San Cristóbal de las Casas',
        nights: 2,
        hotels: ['Hotel Casa Mexicana', 'Casa Lum'],
        included: ['Sumidero canyon boat trip'],
      },
      {
        city: 'Palenque',
        nights: 2,
        hotels: ['Chablis Palenque', 'Boutique Hotel Quinta Chanabnal'],
        included: ['Palenque Maya ruins', 'Agua Azul waterfalls'],
      },
      {
        city: 'Mérida',
        nights: 2,
        hotels: ['Hotel Casa Azul', 'Chablé Yucatán', 'Hacienda Temozón'],
        included: ['Uxmal archaeological site', 'Chichén Itzá'],
        extra: ['Cenote swimming at Ik Kil', '40'],
      },
      {
        city: 'Tulum',
        nights: 3,
        hotels: ['Hotel Bardo Tulum', 'Azulik', 'Be Tulum'],
        included: ['Tulum ruins by the sea'],
        extra: ['Sian Ka’an biosphere boat trip', '110'],
        substitution: 'Snorkelling with turtles at Akumal',
      },
    ],
  },
  {
    code: 'costa-rica-nature',
    country: 'costa-rica',
    countryEn: 'Costa Rica',
    countryNames: { es: 'Costa Rica', ca: 'Costa Rica', en: 'Costa Rica', de: 'Costa Rica', fr: 'Costa Rica' },
    days: 9,
    landPerPersonEur: 1560,
    rateCurrency: 'USD',
    titles: {
      es: 'Costa Rica natural',
      ca: 'Costa Rica natural',
      en: 'Costa Rica Nature',
      de: 'Naturparadies Costa Rica',
      fr: 'Costa Rica nature',
    },
    subtitles: {
      es: 'Tortuguero, Arenal y Manuel Antonio',
      ca: 'Tortuguero, Arenal i Manuel Antonio',
      en: 'Tortuguero, Arenal and Manuel Antonio',
      de: 'Tortuguero, Arenal und Manuel Antonio',
      fr: 'Tortuguero, Arenal et Manuel Antonio',
    },
    stops: [
      {
        city: 'Tortuguero',
        nights: 2,
        hotels: ['Pachira Lodge', 'Tortuga Lodge'],
        included: ['Canal boat safari', 'Village and turtle beach walk'],
      },
      {
        city: 'La Fortuna',
        nights: 3,
        hotels: ['Arenal Springs Resort', 'Tabacón Thermal Resort', 'Nayara Springs'],
        included: ['Hanging bridges of Arenal', 'Arenal volcano trail'],
        extra: ['Canyoning in La Fortuna', '85'],
      },
      {
        city: 'Manuel Antonio',
        nights: 3,
        hotels: ['Hotel Parador Manuel Antonio', 'Arenas del Mar', 'Kura Design Villas'],
        included: ['Manuel Antonio national park'],
        extra: ['Catamaran sunset cruise', '95'],
        substitution: 'Mangrove kayak tour',
      },
    ],
  },
  {
    code: 'morocco-imperial-cities',
    country: 'morocco',
    countryEn: 'Morocco',
    countryNames: { es: 'Marruecos', ca: 'Marroc', en: 'Morocco', de: 'Marokko', fr: 'Maroc' },
    days: 8,
    landPerPersonEur: 890,
    titles: {
      es: 'Marruecos: ciudades imperiales',
      ca: 'Marroc: ciutats imperials',
      en: 'Morocco’s Imperial Cities',
      de: 'Marokko: Königsstädte',
      fr: 'Maroc, les villes impériales',
    },
    subtitles: {
      es: 'Casablanca, Rabat, Fez y Marrakech',
      ca: 'Casablanca, Rabat, Fes i Marràqueix',
      en: 'Casablanca, Rabat, Fes and Marrakesh',
      de: 'Casablanca, Rabat, Fès und Marrakesch',
      fr: 'Casablanca, Rabat, Fès et Marrakech',
    },
    stops: [
      {
        city: 'Casablanca',
        nights: 1,
        // no upgrade here: the checkout's hotel step shows a standalone selection entry
        hotels: ['Kenzi Tower Hotel'],
        included: ['Hassan II mosque'],
      },
      {
        city: 'Fes',
        nights: 3,
        hotels: ['Riad Fes Maya', 'Riad Fes', 'Palais Faraj'],
        included: ['Fes el-Bali medina and tanneries', 'Meknes and Volubilis'],
        extra: ['Moroccan cooking class', '50'],
      },
      {
        city: 'Marrakesh',
        nights: 3,
        hotels: ['Riad Kniza', 'Royal Mansour', 'La Mamounia'],
        included: ['Jemaa el-Fnaa and the souks', 'Majorelle garden'],
        extra: ['Agafay desert dinner under the stars', '85'],
        substitution: 'Hammam and spa afternoon',
      },
    ],
  },
  {
    code: 'egypt-pharaohs-and-nile',
    country: 'egypt',
    countryEn: 'Egypt',
    countryNames: { es: 'Egipto', ca: 'Egipte', en: 'Egypt', de: 'Ägypten', fr: 'Égypte' },
    days: 10,
    landPerPersonEur: 1280,
    titles: {
      es: 'Egipto: faraones y crucero por el Nilo',
      ca: 'Egipte: faraons i creuer pel Nil',
      en: 'Egypt: Pharaohs and the Nile',
      de: 'Ägypten: Pharaonen und Nilkreuzfahrt',
      fr: 'Égypte, pharaons et croisière sur le Nil',
    },
    subtitles: {
      es: 'El Cairo, Luxor, Asuán y Abu Simbel',
      ca: 'El Caire, Luxor, Assuan i Abu Simbel',
      en: 'Cairo, Luxor, Aswan and Abu Simbel',
      de: 'Kairo, Luxor, Assuan und Abu Simbel',
      fr: 'Le Caire, Louxor, Assouan et Abou Simbel',
    },
    stops: [
      {
        city: 'Cairo',
        nights: 3,
        hotels: ['Steigenberger Pyramids Cairo', 'Marriott Mena House', 'Four Seasons Cairo at Nile Plaza'],
        included: ['Giza pyramids and the Sphinx', 'Grand Egyptian Museum'],
        extra: ['Sound and light show at Giza', '35'],
      },
      {
        city: 'Luxor',
        nights: 3,
        hotels: ['MS Nile Premium cruise', 'Sanctuary Sun Boat IV', 'Oberoi Zahra Nile cruise'],
        included: ['Karnak and Luxor temples', 'Valley of the Kings'],
        extra: ['Hot-air balloon at sunrise', '140'],
      },
      {
        city: 'Aswan',
        nights: 3,
        hotels: ['Movenpick Aswan', 'Sofitel Legend Old Cataract'],
        included: ['Philae temple', 'Abu Simbel by road'],
        substitution: 'Felucca sail to a Nubian village',
      },
    ],
  },
  {
    code: 'jordan-petra-and-wadi-rum',
    country: 'jordan',
    countryEn: 'Jordan',
    countryNames: { es: 'Jordania', ca: 'Jordània', en: 'Jordan', de: 'Jordanien', fr: 'Jordanie' },
    days: 8,
    landPerPersonEur: 1150,
    titles: {
      es: 'Jordania: Petra y Wadi Rum',
      ca: 'Jordània: Petra i Wadi Rum',
      en: 'Jordan: Petra and Wadi Rum',
      de: 'Jordanien: Petra und Wadi Rum',
      fr: 'Jordanie, Petra et Wadi Rum',
    },
    subtitles: {
      es: 'Ammán, Petra, Wadi Rum y el mar Muerto',
      ca: 'Amman, Petra, Wadi Rum i el mar Mort',
      en: 'Amman, Petra, Wadi Rum and the Dead Sea',
      de: 'Amman, Petra, Wadi Rum und Totes Meer',
      fr: 'Amman, Petra, Wadi Rum et mer Morte',
    },
    stops: [
      {
        city: 'Amman',
        nights: 2,
        hotels: ['Landmark Amman', 'The St. Regis Amman'],
        included: ['Jerash Roman city', 'Amman citadel'],
      },
      {
        city: 'Petra',
        nights: 2,
        hotels: ['Petra Guest House', 'Mövenpick Resort Petra'],
        included: ['Petra: the Siq and the Treasury', 'The Monastery hike'],
        extra: ['Petra by Night', '30'],
      },
      {
        city: 'Wadi Rum',
        nights: 1,
        hotels: ['Sun City Camp', 'Memories Aicha Luxury Camp'],
        included: ['Jeep safari in the desert'],
        substitution: 'Camel ride at sunset',
      },
      {
        city: 'Dead Sea',
        nights: 2,
        hotels: ['Dead Sea Spa Hotel', 'Kempinski Hotel Ishtar', 'Six Senses Dead Sea'],
        included: ['Floating in the Dead Sea'],
        extra: ['Mud and salt spa ritual', '55'],
      },
    ],
  },
  {
    code: 'south-africa-safari-and-cape',
    country: 'south-africa',
    countryEn: 'South Africa',
    countryNames: { es: 'Sudáfrica', ca: 'Sud-àfrica', en: 'South Africa', de: 'Südafrika', fr: 'Afrique du Sud' },
    days: 13,
    landPerPersonEur: 2480,
    titles: {
      es: 'Sudáfrica: safari y El Cabo',
      ca: 'Sud-àfrica: safari i el Cap',
      en: 'South Africa: Safari and the Cape',
      de: 'Südafrika: Safari und Kap',
      fr: 'Afrique du Sud, safari et Le Cap',
    },
    subtitles: {
      es: 'Kruger, ruta Panorama, Ciudad del Cabo y viñedos',
      ca: 'Kruger, ruta Panorama, Ciutat del Cap i vinyes',
      en: 'Kruger, the Panorama Route, Cape Town and the Winelands',
      de: 'Kruger, Panorama-Route, Kapstadt und Weinland',
      fr: 'Kruger, route des Panoramas, Le Cap et vignobles',
    },
    stops: [
      {
        city: 'Johannesburg',
        nights: 1,
        hotels: ['Radisson Blu Sandton', 'The Saxon'],
        included: ['Soweto and Apartheid Museum'],
      },
      {
        city: 'Kruger',
        nights: 4,
        hotels: ['Protea Hotel Kruger Gate', 'Sabi Sabi Bush Lodge', 'Singita Lebombo'],
        included: ['Game drives in Kruger', 'Panorama Route and Blyde River canyon'],
        extra: ['Walking safari with a ranger', '80'],
      },
      {
        city: 'Cape Town',
        nights: 5,
        hotels: ['Victoria & Alfred Hotel', 'One&Only Cape Town', 'Ellerman House'],
        included: ['Table Mountain and Bo-Kaap', 'Cape Peninsula and Cape Point'],
        extra: ['Stellenbosch wine tasting', '70'],
        substitution: 'Boulders beach penguins',
      },
      {
        city: 'Franschhoek',
        nights: 2,
        hotels: ['Le Franschhoek Hotel', 'Leeu Estates'],
        included: ['Franschhoek wine tram'],
      },
    ],
  },
];

const markets = [
  {
    code: 'es',
    name: 'España',
    is_active: true,
    languages: ['es', 'ca', 'en'],
    currency: { code: 'EUR', name: 'Euro', symbol: '€' },
    timezone: 'Europe/Madrid',
    airports: ['MAD', 'BCN', 'AGP'],
  },
  {
    code: 'de',
    name: 'Deutschland',
    is_active: true,
    languages: ['de', 'en'],
    currency: { code: 'EUR', name: 'Euro', symbol: '€' },
    timezone: 'Europe/Berlin',
    airports: ['FRA', 'MUC', 'BER'],
  },
  {
    code: 'us',
    name: 'United States',
    is_active: true,
    languages: ['en', 'es'],
    currency: { code: 'USD', name: 'US Dollar', symbol: '$' },
    timezone: 'America/New_York',
    airports: ['JFK', 'LAX', 'MIA'],
  },
  {
    code: 'uk',
    name: 'United Kingdom',
    is_active: true,
    languages: ['en'],
    currency: { code: 'GBP', name: 'Pound Sterling', symbol: '£' },
    timezone: 'Europe/London',
    airports: ['LHR', 'MAN'],
  },
  {
    code: 'ca',
    name: 'Canada',
    is_active: true,
    languages: ['en', 'fr'],
    currency: { code: 'CAD', name: 'Canadian Dollar', symbol: '$' },
    timezone: 'America/Toronto',
    airports: ['YYZ', 'YUL'],
  },
  {
    code: 'it',
    name: 'Italia',
    is_active: false,
    languages: ['it'],
    currency: { code: 'EUR', name: 'Euro', symbol: '€' },
    timezone: 'Europe/Rome',
    airports: ['FCO', 'MXP'],
  },
];

const pathSlugs: Record<string, string> = {
  es: 'viajes',
  ca: 'viatges',
  en: 'tours',
  de: 'reisen',
  fr: 'voyages',
  it: 'viaggi',
};

const airports = [
  ['MAD', 'Adolfo Suárez Madrid-Barajas', 'Madrid', 'Spain'],
  ['BCN', 'Josep Tarradellas Barcelona-El Prat', 'Barcelona', 'Spain'],
  ['AGP', 'Málaga-Costa del Sol', 'Málaga', 'Spain'],
  ['FRA', 'Frankfurt am Main', 'Frankfurt', 'Germany'],
  ['MUC', 'Munich Franz Josef Strauss', 'Munich', 'Germany'],
  ['BER', 'Berlin Brandenburg Willy Brandt', 'Berlin', 'Germany'],
  ['JFK', 'John F. Kennedy International', 'New York', 'United States'],
  ['LAX', 'Los Angeles International', 'Los Angeles', 'United States'],
  ['MIA', 'Miami International', 'Miami', 'United States'],
  ['LHR', 'London Heathrow', 'London', 'United Kingdom'],
  ['MAN', 'Manchester', 'Manchester', 'United Kingdom'],
  ['YYZ', 'Toronto Pearson International', 'Toronto', 'Canada'],
  ['YUL', 'Montréal-Trudeau International', 'Montreal', 'Canada'],
  ['FCO', 'Roma Fiumicino Leonardo da Vinci', 'Rome', 'Italy'],
  ['MXP', 'Milan Malpensa', 'Milan', 'Italy'],
  // arrival and domestic airports of the tours, so a booking's flight_selection names both ends
  ['NRT', 'Narita International', 'Tokyo', 'Japan'],
  ['HND', 'Tokyo Haneda', 'Tokyo', 'Japan'],
  ['KIX', 'Kansai International', 'Osaka', 'Japan'],
  ['HAN', 'Noi Bai International', 'Hanoi', 'Vietnam'],
  ['SGN', 'Tan Son Nhat International', 'Ho Chi Minh City', 'Vietnam'],
  ['BKK', 'Suvarnabhumi', 'Bangkok', 'Thailand'],
  ['HKT', 'Phuket International', 'Phuket', 'Thailand'],
  ['DEL', 'Indira Gandhi International', 'Delhi', 'India'],
  ['LIM', 'Jorge Chávez International', 'Lima', 'Peru'],
  ['CUZ', 'Alejandro Velasco Astete International', 'Cusco', 'Peru'],
  ['CUN', 'Cancún International', 'Cancún', 'Mexico'],
  ['SJO', 'Juan Santamaría International', 'San José', 'Costa Rica'],
  ['CMN', 'Mohammed V International', 'Casablanca', 'Morocco'],
  ['CAI', 'Cairo International', 'Cairo', 'Egypt'],
  ['ASW', 'Aswan International', 'Aswan', 'Egypt'],
  ['AMM', 'Queen Alia International', 'Amman', 'Jordan'],
  ['JNB', 'O. R. Tambo International', 'Johannesburg', 'South Africa'],
  ['CPT', 'Cape Town International', 'Cape Town', 'South Africa'],
].map(([iata_code, name, city, country]) => ({
  iata_code,
  name,
  city,
  country,
  translations: {
    ...each((l) => ({
      name: inLang(airportNames, name, l),
      city: inLang(cities, city, l),
      country: inLang(countries, country, l),
    })),
    // Italian for the airports of the `it` market's draft (its departures and their arrival)
    ...(iata_code in italianAirports
      ? {
          it: {
            name: italianAirports[iata_code],
            city: italianCities[city] ?? city,
            country: italianCountries[country],
          },
        }
      : {}),
  },
}));

/** units per 1 EUR */
const rates: Record<string, string> = { USD: '1.0832', GBP: '0.8541', CAD: '1.4710', JPY: '162.40' };

/** Listed products whose every offer is past, inside the lead time, Inactive or Cancelled:
 * leading price null with offers_count 0, an empty configurator, a country product without price. */
const noBookable = new Set(['uk/en/mexico-yucatan-and-chiapas']);

/**
 * Products that are not active (shown only by preview): market/lang/tour -> status. The archived
 * one (a tour withdrawn from the US Spanish site) keeps its offers, as an archived product keeps
 * its bookings; the public API hides it and them.
 */
const notActive: Record<string, 'draft' | 'inactive' | 'archived'> = {
  'uk/en/jordan-petra-and-wadi-rum': 'draft',
  'ca/fr/egypt-pharaohs-and-nile': 'inactive',
  'de/en/south-africa-safari-and-cape': 'draft',
  'es/en/costa-rica-nature': 'inactive',
  'us/es/peru-inca-trail': 'archived',
};

const slugify = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

// ---- translations: every language of the active markets other than English (the base rows)

/** `{es: make('es'), ca: ..., de: ..., fr: ...}` */
function each<T>(make: (lang: Exclude<Lang, 'en'>) => T): Record<string, T> {
  return Object.fromEntries(TRANSLATED.map((l) => [l, make(l)]));
}

const city = (name: string, lang: Lang) => inLang(cities, name, lang);

/**
 * The articles and prepositions the translated place names need ("à Le Caire" -> "au Caire",
 * "a el Caire" -> "al Caire", "in Totes Meer" -> "am Toten Meer"), and a capital first letter.
 */
const GRAMMAR: Record<Lang, [string, string][]> = {
  en: [],
  es: [
    [' en Mar Muerto', ' en el mar Muerto'],
    [' a Mar Muerto', ' al mar Muerto'],
    [' de Mar Muerto', ' del mar Muerto'],
    [' en Bahía de Halong', ' en la bahía de Halong'],
    [' a Bahía de Halong', ' a la bahía de Halong'],
    [' de Bahía de Halong', ' de la bahía de Halong'],
    [' en Valle Sagrado', ' en el Valle Sagrado'],
    [' a Valle Sagrado', ' al Valle Sagrado'],
    [' de Valle Sagrado', ' del Valle Sagrado'],
    [' y Mar Muerto', ' y el mar Muerto'],
    ['De Mar Muerto', 'Del mar Muerto'],
    ['De Bahía de Halong', 'De la bahía de Halong'],
    ['De Valle Sagrado', 'Del Valle Sagrado'],
  ],
  ca: [
    [' a el ', ' al '],
    [' de el ', ' del '],
    ['De el ', 'Del '],
    [' a mar Mort', ' al mar Mort'],
    [' de mar Mort', ' del mar Mort'],
    [' a badia', ' a la badia'],
    [' de badia', ' de la badia'],
    [' a Vall Sagrada', ' a la Vall Sagrada'],
    [' de Vall Sagrada', ' de la Vall Sagrada'],
    ['De Vall Sagrada', 'De la Vall Sagrada'],
    [' de Ho', ' d’Ho'],
    ['De Ho', 'D’Ho'],
    [' de Amman', ' d’Amman'],
    [' de Agra', ' d’Agra'],
    [' de Assuan', ' d’Assuan'],
    ['De Assuan', 'D’Assuan'],
    [' de Osaka', ' d’Osaka'],
    [' i mar Mort', ' i el mar Mort'],
    ['De mar Mort', 'Del mar Mort'],
    ['De badia', 'De la badia'],
  ],
  de: [
    [' und Totes Meer', ' und das Tote Meer'],
    [' in Totes Meer', ' am Toten Meer'],
    [' nach Totes Meer', ' ans Tote Meer'],
    [' von Totes Meer', ' vom Toten Meer'],
    ['Von Totes Meer', 'Vom Toten Meer'],
    [' in Halong-Bucht', ' in der Halong-Bucht'],
    [' nach Halong-Bucht', ' in die Halong-Bucht'],
    [' von Halong-Bucht', ' von der Halong-Bucht'],
    ['Von Halong-Bucht', 'Von der Halong-Bucht'],
    [' in Heiliges Tal', ' im Heiligen Tal'],
    [' nach Heiliges Tal', ' ins Heilige Tal'],
    [' von Heiliges Tal', ' vom Heiligen Tal'],
    ['Von Heiliges Tal', 'Vom Heiligen Tal'],
  ],
  fr: [
    [' à Le ', ' au '],
    [' de Le ', ' du '],
    ['De Le ', 'Du '],
    [' à mer ', ' à la mer '],
    [' de mer ', ' de la mer '],
    ['De mer ', 'De la mer '],
    [' vers mer ', ' vers la mer '],
    [' à baie', ' dans la baie'],
    [' de baie', ' de la baie'],
    ['De baie', 'De la baie'],
    [' vers baie', ' vers la baie'],
    [' à Vallée sacrée', ' dans la Vallée sacrée'],
    [' de Vallée sacrée', ' de la Vallée sacrée'],
    ['De Vallée sacrée', 'De la Vallée sacrée'],
    [' vers Vallée sacrée', ' vers la Vallée sacrée'],
    [' de Amman', ' d’Amman'],
    ['De Amman', 'D’Amman'],
    [' de Agra', ' d’Agra'],
    ['De Agra', 'D’Agra'],
    [' de Assouan', ' d’Assouan'],
    ['De Assouan', 'D’Assouan'],
    [' de Osaka', ' d’Osaka'],
    ['De Osaka', 'D’Osaka'],
    [' de Hô', ' d’Hô'],
    ['De Hô', 'D’Hô'],
    [' et mer Morte', ' et la mer Morte'],
  ],
};

function grammar(lang: Lang, text: string): string {
  let out = text;
  for (const [from, to] of GRAMMAR[lang]) out = out.split(from).join(to);
  return out.charAt(0).toUpperCase() + out.slice(1);
}

// ---- suppliers: hotels, activities, transfers (shared between tours by name)
const hotels = new Map<string, Record<string, unknown>>();
const activities = new Map<string, Record<string, unknown>>();
const transfers = new Map<string, Record<string, unknown>>();
const TIERS = ['selection', 'luxury', 'grand_luxury'] as const;

function hotelCode(name: string) {
  return slugify(name);
}

const hotelText: Record<Exclude<Lang, 'en'>, (tier: number, stars: number, city: string) => string> = {
  es: (t, n, c) => `Estancia ${['cómoda', 'elegante', 'excepcional'][t]} de ${n} estrellas en ${c}.`,
  ca: (t, n, c) => `Estada ${['còmoda', 'elegant', 'excepcional'][t]} de ${n} estrelles a ${c}.`,
  de: (t, n, c) => `${['Komfortabler', 'Eleganter', 'Außergewöhnlicher'][t]} ${n}-Sterne-Aufenthalt in ${c}.`,
  fr: (t, n, c) => `Séjour ${['confortable', 'élégant', 'exceptionnel'][t]} ${n} étoiles à ${c}.`,
};

function addHotel(name: string, city: string, country: string, tier: number, currency: string, tour: Tour) {
  const code = hotelCode(name);
  if (hotels.has(code)) return code;
  const base = [110, 260, 480][tier];
  const roomTypes = ['1A', '2A', '3A', '4A'];
  // one upgrade hotel has no 4-person rooms (its checkout entry is not selectable for 4A)
  const types = name === 'Aman Kyoto' ? roomTypes.slice(0, 3) : roomTypes;
  const factor = currency === 'USD' ? '1.0832' : currency === 'JPY' ? '162.40' : '1';
  const price = (eur: number) => {
    const cents = BigInt(eur * 100) * BigInt(Math.round(Number(factor) * 10000));
    const v = cents / 10000n;
    return `${v / 100n}.${String(v % 100n).padStart(2, '0')}`;
  };
  const hotelRates = types.map((room_type, i) => ({
    room_type,
    price_per_night: price(base + i * Math.round(base * 0.35)),
    currency,
  }));
  if (tier === 0 && tour.code === 'japan-essentials' && city === 'Tokyo') {
    hotelRates.push({ room_type: '2A+1CH', price_per_night: price(base + 60), currency });
  }
  hotels.set(code, {
    code,
    name,
    city,
    country,
    description: `${['Comfortable', 'Elegant', 'Exceptional'][tier]} ${['4-star', '5-star', '5-star'][tier]} stay in ${city}.`,
    images: [`hotels/${code}.jpg`],
    stars: tier === 0 ? 4 : 5,
    // demo supplier contacts: the confirmation requests of demo bookings go to example.com
    supplier: { email: `reservations@${code}.example.com`, name: `${name} reservations`, phone: null },
    rates: hotelRates,
    translations: each((l) => ({
      description: grammar(l, hotelText[l](tier, tier === 0 ? 4 : 5, inLang(cities, city, l))),
      city: inLang(cities, city, l),
      country: inLang(countries, country, l),
    })),
  });
  return code;
}

const activityText: Record<
  Exclude<Lang, 'en'>,
  {
    highlight: (c: string) => string;
    smallGroups: string;
    guide: string;
    languages: string;
    halfDay: string;
    hours: string;
  }
> = {
  es: {
    highlight: (c) => `Uno de los imprescindibles de ${c}`,
    smallGroups: 'Grupos reducidos con guía local',
    guide: 'Guía local',
    languages: 'En inglés y español',
    halfDay: 'Medio día',
    hours: 'Unas 4 horas',
  },
  ca: {
    highlight: (c) => `Un dels imprescindibles de ${c}`,
    smallGroups: 'Grups reduïts amb guia local',
    guide: 'Guia local',
    languages: 'En anglès i castellà',
    halfDay: 'Mig dia',
    hours: 'Unes 4 hores',
  },
  de: {
    highlight: (c) => `Einer der Höhepunkte von ${c}`,
    smallGroups: 'Kleine Gruppen mit örtlicher Reiseleitung',
    guide: 'Örtliche Reiseleitung',
    languages: 'Auf Englisch und Spanisch',
    halfDay: 'Halber Tag',
    hours: 'Etwa 4 Stunden',
  },
  fr: {
    highlight: (c) => `L’un des incontournables de ${c}`,
    smallGroups: 'Petits groupes avec guide local',
    guide: 'Guide local',
    languages: 'En anglais et en espagnol',
    halfDay: 'Demi-journée',
    hours: 'Environ 4 heures',
  },
};

function addActivity(name: string, city: string, country: string, priceEur?: string) {
  const code = slugify(`${city}-${name}`).slice(0, 80);
  if (activities.has(code)) return code;
  const a: Record<string, unknown> = {
    code,
    name,
    description: `${name}, ${city}.`,
    city,
    country,
    images: [`activities/${code}.jpg`],
    reasons: [`One of the highlights of ${city}`, 'Small groups with a local guide'],
    amenities: [
      { icon: 'guide', label: 'Local guide', description: 'Guided in English and Spanish' },
      { icon: 'clock', label: 'Half day', description: 'About 4 hours' },
    ],
    translations: each((l) => {
      const t = activityText[l];
      const place = inLang(cities, city, l);
      return {
        name: inLang(activityNames, name, l),
        description: `${inLang(activityNames, name, l)}, ${place}.`,
        city: place,
        country: inLang(countries, country, l),
        reasons: [grammar(l, t.highlight(place)), t.smallGroups],
        amenities: [
          { icon: 'guide', label: t.guide, description: t.languages },
          { icon: 'clock', label: t.halfDay, description: t.hours },
        ],
      };
    }),
  };
  if (priceEur) a.rate = { price_per_person: `${priceEur}.00`, currency: 'EUR' };
  activities.set(code, a);
  return code;
}

const transferText: Record<
  Exclude<Lang, 'en'>,
  {
    shared: (c: string) => [string, string];
    private: (c: string) => [string, string];
    coach: (a: string, b: string) => string;
    minivan: (a: string, b: string) => string;
  }
> = {
  es: {
    shared: (c) => [
      `Aeropuerto de ${c} – hotel (compartido)`,
      `Traslado compartido del aeropuerto de ${c} a tu hotel.`,
    ],
    private: (c) => [
      `Aeropuerto de ${c} – hotel (coche privado)`,
      `Coche privado con conductor desde el aeropuerto de ${c} directo a tu hotel.`,
    ],
    coach: (a, b) => `De ${a} a ${b} en autocar`,
    minivan: (a, b) => `De ${a} a ${b} en minivan privada`,
  },
  ca: {
    shared: (c) => [`Aeroport de ${c} – hotel (compartit)`, `Trasllat compartit de l’aeroport de ${c} al teu hotel.`],
    private: (c) => [
      `Aeroport de ${c} – hotel (cotxe privat)`,
      `Cotxe privat amb xofer des de l’aeroport de ${c} directe al teu hotel.`,
    ],
    coach: (a, b) => `De ${a} a ${b} en autocar`,
    minivan: (a, b) => `De ${a} a ${b} en monovolum privat`,
  },
  de: {
    shared: (c) => [`Flughafen ${c} – Hotel (Shuttle)`, `Gemeinsamer Shuttle vom Flughafen ${c} zu Ihrem Hotel.`],
    private: (c) => [
      `Flughafen ${c} – Hotel (Privatwagen)`,
      `Privatwagen mit Fahrer vom Flughafen ${c} direkt zu Ihrem Hotel.`,
    ],
    coach: (a, b) => `Von ${a} nach ${b} im Reisebus`,
    minivan: (a, b) => `Von ${a} nach ${b} im privaten Minivan`,
  },
  fr: {
    shared: (c) => [`Aéroport de ${c} – hôtel (navette)`, `Navette partagée de l’aéroport de ${c} à votre hôtel.`],
    private: (c) => [
      `Aéroport de ${c} – hôtel (voiture privée)`,
      `Voiture privée avec chauffeur de l’aéroport de ${c} jusqu’à votre hôtel.`,
    ],
    coach: (a, b) => `De ${a} à ${b} en autocar`,
    minivan: (a, b) => `De ${a} à ${b} en minivan privé`,
  },
};

/** A transfer's translations: [name, description?] made from the translated city, plus city and country. */
function transferTexts(place: string, country: string, make: (l: Exclude<Lang, 'en'>, city: string) => string[]) {
  return each((l) => {
    const [name, description] = make(l, city(place, l)).map((t) => grammar(l, t));
    return {
      name,
      ...(description ? { description } : {}),
      city: city(place, l),
      country: inLang(countries, country, l),
    };
  });
}

function addTransfer(code: string, t: Record<string, unknown>) {
  if (!transfers.has(code)) transfers.set(code, { code, ...t });
  return code;
}

// ---- localized day texts
const say: Record<
  Lang,
  {
    arrival: (c: string) => string;
    travel: (a: string, b: string) => string;
    visit: (c: string, what: string) => string;
    free: (c: string) => string;
    home: string;
    arrivalText: (c: string) => string;
    travelText: (a: string, b: string) => string;
    visitText: (what: string) => string;
    freeText: (c: string) => string;
    homeText: string;
    info: (country: string) => string;
    long: (title: string, cities: string, days: number) => string;
    short: (days: number, cities: string) => string;
    nights: (n: number, c: string) => string;
  }
> = {
  es: {
    arrival: (c) => `Llegada a ${c}`,
    travel: (a, b) => `De ${a} a ${b}`,
    visit: (c, w) => `${c}: ${w}`,
    free: (c) => `Día libre en ${c}`,
    home: 'Vuelo de regreso',
    arrivalText: (c) => `Llegada a ${c}, recepción en el aeropuerto y traslado al hotel. Resto del día libre.`,
    travelText: (a, b) => `Por la mañana salimos de ${a} hacia ${b}. Llegada y alojamiento.`,
    visitText: (w) => `Hoy disfrutamos de: ${w}. Tarde libre para seguir explorando.`,
    freeText: (c) => `Día libre en ${c} para descubrirla a tu ritmo o añadir una excursión opcional.`,
    homeText: 'Traslado al aeropuerto y vuelo de regreso a casa.',
    info: (c) => `Pasaporte con seis meses de validez. Consulta los requisitos de entrada de ${c} antes de viajar.`,
    long: (t, c, d) => `${t}: ${d} días recorriendo ${c} con guías locales, hoteles escogidos y vuelos incluidos.`,
    short: (d, c) => `${d} días por ${c}.`,
    nights: (n, c) => `${n} ${n === 1 ? 'noche' : 'noches'} en ${c}`,
  },
  ca: {
    arrival: (c) => `Arribada a ${c}`,
    travel: (a, b) => `De ${a} a ${b}`,
    visit: (c, w) => `${c}: ${w}`,
    free: (c) => `Dia lliure a ${c}`,
    home: 'Vol de tornada',
    arrivalText: (c) => `Arribada a ${c}, recepció a l’aeroport i trasllat a l’hotel. Resta del dia lliure.`,
    travelText: (a, b) => `Al matí sortim de ${a} cap a ${b}. Arribada i allotjament.`,
    visitText: (w) => `Avui gaudim de: ${w}. Tarda lliure per continuar explorant.`,
    freeText: (c) => `Dia lliure a ${c} per descobrir-la al teu ritme o afegir una excursió opcional.`,
    homeText: 'Trasllat a l’aeroport i vol de tornada a casa.',
    info: (c) => `Passaport amb sis mesos de validesa. Consulta els requisits d’entrada de ${c} abans de viatjar.`,
    long: (t, c, d) => `${t}: ${d} dies recorrent ${c} amb guies locals, hotels escollits i vols inclosos.`,
    short: (d, c) => `${d} dies per ${c}.`,
    nights: (n, c) => `${n} ${n === 1 ? 'nit' : 'nits'} a ${c}`,
  },
  en: {
    arrival: (c) => `Arrival in ${c}`,
    travel: (a, b) => `${a} to ${b}`,
    visit: (c, w) => `${c}: ${w}`,
    free: (c) => `Free day in ${c}`,
    home: 'Flight home',
    arrivalText: (c) =>
      `Arrive in ${c}, meet your guide at the airport and transfer to the hotel. Rest of the day at leisure.`,
    travelText: (a, b) => `In the morning we leave ${a} for ${b}. Arrival and check-in.`,
    visitText: (w) => `Today: ${w}. Free afternoon to keep exploring.`,
    freeText: (c) => `A free day in ${c} to explore at your own pace or add an optional excursion.`,
    homeText: 'Transfer to the airport and flight home.',
    info: (c) => `Passport valid for six months. Check the entry requirements of ${c} before you travel.`,
    long: (t, c, d) => `${t}: ${d} days through ${c} with local guides, hand-picked hotels and flights included.`,
    short: (d, c) => `${d} days through ${c}.`,
    nights: (n, c) => `${n} ${n === 1 ? 'night' : 'nights'} in ${c}`,
  },
  de: {
    arrival: (c) => `Ankunft in ${c}`,
    travel: (a, b) => `Von ${a} nach ${b}`,
    visit: (c, w) => `${c}: ${w}`,
    free: (c) => `Freier Tag in ${c}`,
    home: 'Rückflug',
    arrivalText: (c) => `Ankunft in ${c}, Empfang am Flughafen und Transfer zum Hotel. Der restliche Tag ist frei.`,
    travelText: (a, b) => `Am Morgen geht es von ${a} nach ${b}. Ankunft und Check-in.`,
    visitText: (w) => `Heute erleben Sie: ${w}. Der Nachmittag steht zur freien Verfügung.`,
    freeText: (c) => `Ein freier Tag in ${c} für eigene Entdeckungen oder einen optionalen Ausflug.`,
    homeText: 'Transfer zum Flughafen und Rückflug.',
    info: (c) => `Reisepass mit sechs Monaten Gültigkeit. Prüfen Sie vor der Reise die Einreisebestimmungen für ${c}.`,
    long: (t, c, d) => `${t}: ${d} Tage durch ${c} mit örtlichen Reiseleitern, ausgewählten Hotels und Flügen.`,
    short: (d, c) => `${d} Tage durch ${c}.`,
    nights: (n, c) => `${n} ${n === 1 ? 'Nacht' : 'Nächte'} in ${c}`,
  },
  fr: {
    arrival: (c) => `Arrivée à ${c}`,
    travel: (a, b) => `De ${a} à ${b}`,
    visit: (c, w) => `${c} : ${w}`,
    free: (c) => `Journée libre à ${c}`,
    home: 'Vol retour',
    arrivalText: (c) => `Arrivée à ${c}, accueil à l’aéroport et transfert à l’hôtel. Reste de la journée libre.`,
    travelText: (a, b) => `Le matin, départ de ${a} vers ${b}. Arrivée et installation.`,
    visitText: (w) => `Au programme : ${w}. Après-midi libre pour continuer la découverte.`,
    freeText: (c) => `Journée libre à ${c} pour explorer à votre rythme ou ajouter une excursion.`,
    homeText: 'Transfert à l’aéroport et vol retour.',
    info: (c) => `Passeport valable six mois. Vérifiez les conditions d’entrée de ${c} avant de partir.`,
    long: (t, c, d) => `${t} : ${d} jours à travers ${c} avec guides locaux, hôtels choisis et vols inclus.`,
    short: (d, c) => `${d} jours à travers ${c}.`,
    nights: (n, c) => `${n} ${n === 1 ? 'nuit' : 'nuits'} à ${c}`,
  },
};

function listJoin(items: string[], lang: Lang) {
  const and = { es: 'y', ca: 'i', en: 'and', de: 'und', fr: 'et' }[lang];
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`;
}

// ---- build
const productTemplates: Record<string, unknown>[] = [];
const marketProducts: Record<string, unknown>[] = [];

function tourSuppliers(tour: Tour) {
  const currency = tour.rateCurrency ?? 'EUR';
  const stays: Record<string, unknown>[] = [];
  const dayActs = new Map<number, { activity: string; tier: string }[]>();
  const dayTransfers: Record<string, unknown>[] = [];
  let day = 1;
  tour.stops.forEach((stop, i) => {
    const country = stop.country ?? tour.countryEn;
    const start = day;
    const end = day + stop.nights - 1;
    (stop.hotels ?? []).forEach((name, tier) => {
      if (!name) return;
      const hotelCurrency = name === 'Aman Tokyo' ? 'JPY' : currency;
      const code = addHotel(name, stop.city, country, tier, hotelCurrency, tour);
      stays.push({ hotel: code, tier: TIERS[tier], day_start: start, day_end: end });
    });
    // included activities one a day from the second day of the stop (the first when it is one night)
    stop.included.forEach((name, k) => {
      const d = Math.min(start + (stop.nights > 1 ? k + 1 : k), end);
      const list = dayActs.get(d) ?? [];
      list.push({ activity: addActivity(name, stop.city, country), tier: 'included' });
      dayActs.set(d, list);
    });
    const busy = Math.min(start + (stop.nights > 1 ? 1 : 0), end);
    if (stop.extra) {
      const list = dayActs.get(busy) ?? [];
      list.push({
        activity: addActivity(stop.extra[0], stop.city, country, stop.extra[1] || undefined),
        tier: 'extra',
      });
      dayActs.set(busy, list);
    }
    if (stop.substitution) {
      const list = dayActs.get(busy) ?? [];
      list.push({ activity: addActivity(stop.substitution, stop.city, country, '40'), tier: 'substitution' });
      dayActs.set(busy, list);
    }
    const citySlug = slugify(stop.city);
    if (i === 0) {
      dayTransfers.push({
        day: 1,
        transfer: addTransfer(`${citySlug}-airport-shuttle`, {
          name: `${stop.city} airport to hotel (shared)`,
          description: `Shared shuttle from ${stop.city} airport to your hotel.`,
          city: stop.city,
          country,
          translations: transferTexts(stop.city, country, (l, c) => transferText[l].shared(c)),
          vehicle_type: 'shuttle',
          duration_minutes: 60,
        }),
        kind: 'included',
      });
      dayTransfers.push({
        day: 1,
        transfer: addTransfer(`${citySlug}-airport-private`, {
          name: `${stop.city} airport to hotel (private car)`,
          description: `Private car with driver from ${stop.city} airport straight to your hotel.`,
          city: stop.city,
          country,
          translations: transferTexts(stop.city, country, (l, c) => transferText[l].private(c)),
          images: [`transfers/${citySlug}-private.jpg`],
          vehicle_type: 'sedan',
          duration_minutes: 45,
          rate: { price_per_trip: currency === 'USD' ? '95.00' : '85.00', currency },
        }),
        kind: 'upsell',
      });
    } else {
      const prev = tour.stops[i - 1].city;
      const code = `${slugify(prev)}-to-${citySlug}`;
      dayTransfers.push({
        day: start,
        transfer: addTransfer(`${code}-coach`, {
          name: `${prev} to ${stop.city} by coach`,
          city: stop.city,
          country,
          translations: transferTexts(stop.city, country, (l, c) => [transferText[l].coach(city(prev, l), c)]),
          vehicle_type: 'coach',
          duration_minutes: 180,
        }),
        kind: 'included',
      });
      if (i === 1) {
        dayTransfers.push({
          day: start,
          transfer: addTransfer(`${code}-private`, {
            name: `${prev} to ${stop.city} by private minivan`,
            city: stop.city,
            country,
            translations: transferTexts(stop.city, country, (l, c) => [transferText[l].minivan(city(prev, l), c)]),
            vehicle_type: 'minivan',
            duration_minutes: 150,
            // one upsell transfer without a rate: offered but unpriced
            ...(tour.code === 'thailand-temples-and-islands'
              ? {}
              : { rate: { price_per_trip: '160.00', currency: 'EUR' } }),
          }),
          kind: 'upsell',
        });
      }
    }
    day = end + 1;
  });
  if (day !== tour.days) throw new Error(`${tour.code}: nights add up to day ${day}, expected ${tour.days}`);
  return { stays: tour.package ? [] : stays, dayActs, dayTransfers };
}

function itinerary(tour: Tour, lang: Lang, dayActs: Map<number, { activity: string; tier: string }[]>) {
  const s = say[lang];
  const days: Record<string, unknown>[] = [];
  let day = 1;
  tour.stops.forEach((stop, i) => {
    for (let k = 0; k < stop.nights; k++, day++) {
      const acts = dayActs.get(day) ?? [];
      // activity and city names in the page's language (the day titles quote them)
      const included = acts
        .filter((a) => a.tier === 'included')
        .map((a) => inLang(activityNames, activities.get(a.activity)!.name as string, lang));
      const here = city(stop.city, lang);
      let title: string;
      let description: string;
      const before = i > 0 ? city(tour.stops[i - 1].city, lang) : '';
      if (k === 0 && i === 0) {
        title = s.arrival(here);
        description = s.arrivalText(here);
      } else if (k === 0) {
        title = s.travel(before, here);
        description = s.travelText(before, here);
      } else if (included.length) {
        title = s.visit(here, included[0]);
        description = s.visitText(listJoin(included, lang));
      } else {
        title = s.free(here);
        description = s.freeText(here);
      }
      days.push({
        day,
        title: grammar(lang, title),
        description: grammar(lang, description),
        city: grammar(lang, here),
        country: tour.countryNames[lang],
        activities: acts,
      });
    }
  });
  const last = tour.stops.at(-1)!;
  days.push({
    day,
    title: s.home,
    description: s.homeText,
    city: grammar(lang, city(last.city, lang)),
    country: tour.countryNames[lang],
    activities: [],
  });
  return days;
}

// ---- flights: the route each offer's flight cache starts from (arrival gateway, departure
// gateway, and domestic legs flown inside the country). Multi-city when the two gateways differ.
const routes: Record<string, { arrive: string; leave: string; domestic?: [string, string, number, number][] }> = {
  'japan-essentials': { arrive: 'NRT', leave: 'KIX' },
  'japan-alps-and-kyoto': { arrive: 'HND', leave: 'KIX' },
  'vietnam-north-to-south': { arrive: 'HAN', leave: 'SGN' },
  'thailand-temples-and-islands': { arrive: 'BKK', leave: 'HKT' },
  'india-golden-triangle': { arrive: 'DEL', leave: 'DEL' },
  // [origin, destination, tour day, EUR per person]
  'peru-inca-trail': { arrive: 'LIM', leave: 'LIM', domestic: [['LIM', 'CUZ', 3, 95]] },
  'mexico-yucatan-and-chiapas': { arrive: 'CUN', leave: 'CUN' },
  'costa-rica-nature': { arrive: 'SJO', leave: 'SJO' },
  'morocco-imperial-cities': { arrive: 'CMN', leave: 'CMN' },
  'egypt-pharaohs-and-nile': { arrive: 'CAI', leave: 'CAI', domestic: [['CAI', 'ASW', 4, 80]] },
  'jordan-petra-and-wadi-rum': { arrive: 'AMM', leave: 'AMM' },
  'south-africa-safari-and-cape': { arrive: 'JNB', leave: 'CPT' },
};

const rel = (offset: number) => (offset < 0 ? `today${offset}` : `today+${offset}`);

// The cached route's flight details, so the checkout's cached flight card reads like a real one
// before any live search: the market's carrier, nonstop from its hub and one stop through the hub
// from the market's other airports. Times are local (UTC offsets without daylight saving).
const carriers: Record<string, { code: string; name: string; hub: string }> = {
  es: { code: 'IB', name: 'Iberia', hub: 'MAD' },
  de: { code: 'LH', name: 'Lufthansa', hub: 'FRA' },
  us: { code: 'AA', name: 'American Airlines', hub: 'JFK' },
  uk: { code: 'BA', name: 'British Airways', hub: 'LHR' },
  ca: { code: 'AC', name: 'Air Canada', hub: 'YYZ' },
  it: { code: 'AZ', name: 'ITA Airways', hub: 'FCO' },
};
const utcOffsetHours: Record<string, number> = {
  MAD: 1,
  BCN: 1,
  AGP: 1,
  FRA: 1,
  MUC: 1,
  BER: 1,
  FCO: 1,
  MXP: 1,
  LHR: 0,
  MAN: 0,
  JFK: -5,
  MIA: -5,
  LAX: -8,
  YYZ: -5,
  YUL: -5,
  NRT: 9,
  HND: 9,
  KIX: 9,
  HAN: 7,
  SGN: 7,
  BKK: 7,
  HKT: 7,
  DEL: 5.5,
  LIM: -5,
  CUN: -5,
  SJO: -6,
  CMN: 1,
  CAI: 2,
  AMM: 3,
  JNB: 2,
  CPT: 2,
};
/** nonstop block minutes between a destination airport and [Europe, North America] */
const blockMinutes: Record<string, [number, number]> = {
  NRT: [840, 780],
  HND: [840, 780],
  KIX: [850, 800],
  HAN: [780, 1200],
  SGN: [790, 1150],
  BKK: [690, 1080],
  HKT: [730, 1140],
  DEL: [510, 840],
  LIM: [750, 500],
  CUN: [630, 240],
  SJO: [660, 330],
  CMN: [150, 450],
  CAI: [270, 660],
  AMM: [290, 690],
  JNB: [660, 960],
  CPT: [700, 1000],
};
const DEPARTURES = ['09:40', '11:55', '13:20', '16:45', '22:10'];

function hhmm(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

function cachedSegment(market: string, from: string, to: string, date: string, seed: number) {
  const carrier = carriers[market];
  const home = from in blockMinutes ? to : from; // the market's airport
  const away = home === from ? to : from;
  const stopover = home === carrier.hub ? [] : [carrier.hub];
  const [europe, americas] = blockMinutes[away];
  const duration = (utcOffsetHours[home] < -2 ? americas : europe) + stopover.length * 150;
  const [h, m] = DEPARTURES[seed % DEPARTURES.length].split(':').map(Number);
  const departs = h * 60 + m;
  const arrives = departs + duration + (utcOffsetHours[to] - utcOffsetHours[from]) * 60;
  const number = (k: number) => `${carrier.code}${100 + ((seed * 37 + k * 211) % 800)}`;
  return {
    departure_airport: from,
    arrival_airport: to,
    departure_date: date,
    departure_time: hhmm(departs),
    arrival_time: hhmm(arrives),
    arrivalDayOffset: Math.floor(arrives / 1440),
    duration_minutes: duration,
    flight_numbers: stopover.length ? [number(1), number(2)] : [number(1)],
    airlines: [{ code: carrier.code, name: carrier.name }],
    stops: stopover.length,
    stopover_airports: stopover,
  };
}

function flightData(tour: Tour, market: string, port: string, offset: number, conv: (eur: number) => bigint) {
  const route = routes[tour.code];
  const seed = [...`${tour.code}${port}`].reduce((a, c) => a + c.charCodeAt(0), 0) + offset;
  return {
    outbound: cachedSegment(market, port, route.arrive, rel(offset), seed),
    inbound: cachedSegment(market, route.leave, port, rel(offset + tour.days - 1), seed + 2),
    legs: (route.domestic ?? []).map(([origin, destination, day, eur], i) => ({
      leg_index: i + 1,
      type: 'domestic',
      route: `${origin}-${destination}`,
      cabin_class: 'ECONOMY',
      fare_price: Number(money(conv(eur))),
      flight_numbers: { outbound: [`LA${2000 + i * 17}`], inbound: [] },
      origin,
      destination,
      departure_date: rel(offset + day - 1),
    })),
  };
}

// ---- offers: prices in the market currency, integer cents only
const flightEur: Record<string, number> = { es: 780, de: 820, us: 690, uk: 640, ca: 720, it: 760 };
const perEur: Record<string, bigint> = { EUR: 10000n, USD: 10832n, GBP: 8541n, CAD: 14710n };

function money(cents: bigint) {
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

function offersFor(tour: Tour, tourIndex: number, market: (typeof markets)[number], lang: string) {
  const cur = market.currency.code;
  const conv = (eur: number) => (BigInt(eur * 100) * perEur[cur]) / 10000n;
  const list: Record<string, unknown>[] = [];
  const ports = market.airports;
  const step = 14 + ((tourIndex * 5) % 15); // every 2 to 4 weeks
  const first = 9 + ((tourIndex * 3) % 12);
  let n = 0;
  const push = (offset: number, port: string, extra: Record<string, unknown> = {}, season = 0) => {
    n++;
    const land = conv(tour.landPerPersonEur + season) * 2n; // 2 adults, selection hotels
    const flight = conv(flightEur[market.code] + season / 4);
    const margin = 18n;
    const rawPp = ((land / 2n + flight) * (100n + margin)) / 100n;
    // marketing price: up to the next 5 units, minus 1 cent
    const unit = 500n;
    const pp = ((rawPp + unit - 1n) / unit) * unit - 1n;
    list.push({
      code: `${tour.code}-${market.code}-${lang}-${String(n).padStart(2, '0')}`,
      departure_airport: port,
      departure_date: rel(offset),
      return_date: rel(offset + tour.days - 1),
      status: 'Active',
      pax_count: 2,
      allotment: 10 + ((n * 7 + tourIndex) % 11),
      allotment_used: (n * 3) % 5,
      land_base_price: money(land),
      flight_price: money(flight),
      margin_percent: '18.00',
      final_price: money(pp * 2n),
      price_per_person: money(pp),
      flight_data: flightData(tour, market.code, port, offset, conv),
      ...extra,
    });
  };
  if (noBookable.has(`${market.code}/${lang}/${tour.code}`)) {
    push(3, ports[0]); // inside the 5-day lead time
    push(-20, ports[0]); // past
    push(first, ports[0], { status: 'Inactive' });
    push(first + step, ports[0], { status: 'Cancelled' });
    return list;
  }
  let k = 0;
  for (let offset = first; offset <= 365; offset += step, k++) {
    const month = Math.floor(offset / 30) % 12;
    const season = [0, 0, 80, 120, 60, 0, 150, 220, 90, 0, 40, 180][month];
    push(offset, ports[k % Math.min(ports.length, 3)], {}, season);
  }
  if (tourIndex < 5) {
    // the edge cases of bookability and availability
    push(2, ports[0]); // inside the 5-day lead time
    push(4, ports[1 % ports.length]);
    push(-12, ports[0]); // past
    push(-45, ports[0]);
    push(first + 7, ports[0], { allotment: 12, allotment_used: 12 }); // sold out
    push(first + 21, ports[1 % ports.length], { status: 'Inactive' });
    push(first + 35, ports[0], { status: 'Cancelled' });
    // one seat left for a party of two: listed with available false
    push(first + 10, ports[0], { allotment: 12, allotment_used: 11 });
  }
  if (tourIndex === 0) {
    // the offer statuses the edge cases above do not use, so the console lists every one; none is
    // public. An archived departure of an active product (hidden, kept for bookings), a draft one
    // and one marked sold out by hand.
    push(first + 49, ports[0], { status: 'Archived', code: `${tour.code}-${market.code}-${lang}-archived` });
    push(first + 63, ports[0], { status: 'Draft', code: `${tour.code}-${market.code}-${lang}-draft` });
    push(first + 77, ports[0], { status: 'SoldOut', code: `${tour.code}-${market.code}-${lang}-sold-out` });
  }
  return list;
}

/**
 * The `it` market (not active yet) gets one draft: the tour in Italian with bookable offers from
 * Rome and Milan, so a signed preview shows its price and configurator while the market's public
 * endpoints answer 403. Its supply (hotels, activities, transfers) gets Italian texts.
 */
function addItalianDraft(
  tour: Tour,
  tourIndex: number,
  dayActs: Map<number, { activity: string; tier: string }[]>,
  dayTransfers: Record<string, unknown>[],
  stays: Record<string, unknown>[],
) {
  const market = markets.find((m) => m.code === 'it')!;
  const country = italianCountries[tour.countryEn];
  const place = (c: string) => italianCities[c] ?? c;
  const translate = (row: Record<string, unknown>, it: Record<string, unknown>) => {
    row.translations = { ...(row.translations as object), it };
  };
  for (const stay of stays) {
    const hotel = hotels.get(stay.hotel as string)!;
    const tier = TIERS.indexOf(stay.tier as (typeof TIERS)[number]);
    const c = place(hotel.city as string);
    translate(hotel, { description: italianSupply.hotel(tier, hotel.stars as number, c), city: c, country });
  }
  const t = italianSupply.activity;
  for (const acts of dayActs.values()) {
    for (const { activity } of acts) {
      const a = activities.get(activity)!;
      const name = italianActivities[a.name as string];
      if (!name) throw new Error(`${a.name}: no Italian name`);
      const c = place(a.city as string);
      translate(a, {
        name,
        description: `${name}, ${c}.`,
        city: c,
        country,
        reasons: [t.highlight(c), t.smallGroups],
        amenities: [
          { icon: 'guide', label: t.guide, description: t.languages },
          { icon: 'clock', label: t.halfDay, description: t.hours },
        ],
      });
    }
  }
  for (const { transfer } of dayTransfers) {
    const row = transfers.get(transfer as string)!;
    const code = transfer as string;
    const to = place(row.city as string);
    const from = tour.stops.find((st) => code.startsWith(`${slugify(st.city)}-to-`))?.city;
    const [name, description] = code.endsWith('-airport-shuttle')
      ? italianSupply.transfer.shared(to)
      : code.endsWith('-airport-private')
        ? italianSupply.transfer.private(to)
        : code.endsWith('-coach')
          ? italianSupply.transfer.coach(place(from!), to)
          : italianSupply.transfer.minivan(place(from!), to);
    translate(row, { name, ...(description ? { description } : {}), city: to, country });
  }
  const days: Record<string, unknown>[] = [];
  let day = 1;
  for (const stop of tour.stops) {
    for (let k = 0; k < stop.nights; k++, day++) {
      const [title, description] = italianProduct.days[day - 1];
      days.push({ day, title, description, city: place(stop.city), country, activities: dayActs.get(day) ?? [] });
    }
  }
  const [title, description] = italianProduct.days[day - 1];
  days.push({ day, title, description, city: place(tour.stops.at(-1)!.city), country, activities: [] });
  if (days.length !== italianProduct.days.length) throw new Error(`${tour.code}: Italian days do not match`);
  const { days: _, ...texts } = italianProduct;
  marketProducts.push({
    template: tour.code,
    market: market.code,
    language: 'it',
    version: 1,
    status: 'draft',
    sort_order: (tourIndex + 1) * 10,
    ...texts,
    hero_image: `tours/${tour.code}/hero-it.jpg`,
    departure_airports: market.airports,
    itinerary: days,
    offers: offersFor(tour, tourIndex, market, 'it'),
  });
}

tours.forEach((tour, tourIndex) => {
  const { stays, dayActs, dayTransfers } = tourSuppliers(tour);
  productTemplates.push({
    code: tour.code,
    title: tour.titles.en,
    trip_duration_days: tour.days,
    country_slug: tour.country,
    hero_image: `tours/${tour.code}/hero.jpg`,
    ...(tour.package ? { package_service_name: tour.package } : {}),
    accommodations: stays,
    day_transfers: dayTransfers,
  });
  for (const market of markets.filter((m) => m.is_active !== false)) {
    for (const lang of market.languages as Lang[]) {
      const s = say[lang];
      const stops = listJoin(
        tour.stops.map((st) => city(st.city, lang)),
        lang,
      );
      const status = notActive[`${market.code}/${lang}/${tour.code}`] ?? 'active';
      marketProducts.push({
        template: tour.code,
        market: market.code,
        language: lang,
        version: 1,
        status,
        sort_order: (tourIndex + 1) * 10,
        title: tour.titles[lang],
        subtitle: tour.subtitles[lang],
        short_description: grammar(lang, s.short(tour.days, stops)),
        long_description: grammar(lang, s.long(tour.titles[lang], stops, tour.days)),
        highlights: tour.stops.map((st) => grammar(lang, s.nights(st.nights, city(st.city, lang)))),
        destination_info: s.info(tour.countryNames[lang]),
        url_slug: slugify(tour.titles[lang]),
        country_name: tour.countryNames[lang],
        hero_image: `tours/${tour.code}/hero-${lang}.jpg`,
        departure_airports: market.airports.slice(0, 3),
        itinerary: itinerary(tour, lang, dayActs),
        offers: status === 'active' || status === 'archived' ? offersFor(tour, tourIndex, market, lang) : [],
      });
    }
  }
  if (tour.code === ITALIAN_TOUR) addItalianDraft(tour, tourIndex, dayActs, dayTransfers, stays);
});

// departure rules (offers.generate): a weekly departure of the first tours in each market's first
// language from its main airport, for three years from the day the demo is loaded, so the demo's
// calendar keeps moving forward; the fallback fare is the market's usual one until a live search
// caches a fare for the date
const offerRules = tours.slice(0, 4).flatMap((tour, tourIndex) =>
  markets
    .filter((m) => m.is_active !== false)
    .map((market) => {
      const lang = market.languages[0] as Lang;
      const conv = (eur: number) => (BigInt(eur * 100) * perEur[market.currency.code]) / 10000n;
      return {
        code: `${tour.code}-${market.code}-${lang}-weekly`,
        product: { template: tour.code, market: market.code, language: lang },
        departure_airport: market.airports[0],
        weekdays: [(tourIndex % 7) + 1],
        season_start: rel(0),
        season_end: rel(1095),
        pax_count: 2,
        seats: 10,
        margin_percent: '18.00',
        fallback_flight_price: money(conv(flightEur[market.code])),
      };
    })
    .filter((r) => !notActive[`${r.product.market}/${r.product.language}/${tour.code}`]),
);

const doc = {
  airports,
  exchange_rates: Object.entries(rates).map(([currency, rate_per_eur]) => ({ currency, rate_per_eur })),
  markets: markets.map((m) => ({
    ...m,
    tour_path_slugs: Object.fromEntries(m.languages.map((l) => [l, pathSlugs[l]])),
  })),
  hotels: [...hotels.values()],
  activities: [...activities.values()],
  transfers: [...transfers.values()],
  product_templates: productTemplates,
  market_products: marketProducts,
  offer_rules: offerRules,
};

// one line per offer's flight_data: spread over lines it made the file 1.9 MB larger
const compact: string[] = [];
const text = JSON.stringify(
  doc,
  (key, value) => (key === 'flight_data' ? `\u0000${compact.push(JSON.stringify(value)) - 1}` : value),
  1,
).replace(/"\\u0000(\d+)"/g, (_, i: string) => compact[Number(i)]);
writeFileSync(new URL('../data/demo/catalog.json', import.meta.url), `${text}\n`);
console.log(
  `wrote data/demo/catalog.json: ${tours.length} tours, ${marketProducts.length} market products, ` +
    `${marketProducts.reduce((n, p) => n + (p.offers as unknown[]).length, 0)} offers, ${hotels.size} hotels, ` +
    `${activities.size} activities, ${transfers.size} transfers, ${offerRules.length} departure rules`,
);
