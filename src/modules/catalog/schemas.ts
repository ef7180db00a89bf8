// Response schemas of the catalog routes (OpenAPI documents them; bodies are pre-rendered JSON).
import { Type } from 'typebox';
import { component, ref } from '../../platform/openapi.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const ProductItem = Type.Object({
  id: Type.Integer({ description: 'market-product id' }),
  product_template_id: Type.Integer(),
  sku: Type.String({ description: '<MARKET>-<TEMPLATEID><IATA><DAYS>-<LANG><VERSION>, e.g. ES-3MAD12-CA1' }),
  locale: Type.String({ description: '<lang>_<MARKET>' }),
  status: Type.String({ description: 'lists only return active' }),
  sort_order: Type.Integer(),
  trip_duration_days: Type.Integer(),
  title: Type.String(),
  subtitle: Type.String(),
  short_description: Type.String(),
  long_description: Type.String(),
  highlights: Type.Array(Type.String()),
  destination_info: Type.String(),
  url_slug: Type.String({ description: 'translated slug' }),
  hero_image: Nullable(Type.String({ description: 'absolute URL' })),
  country_name: Type.String(),
  country_slug: Type.String(),
  departure_airports: Type.Array(
    Type.Object({ iata_code: Type.String(), name: Type.String(), city: Type.String(), country: Type.String() }),
  ),
});

export const DayActivity = Type.Object({
  id: Type.Integer({ description: 'activity id' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  tier: Type.Union([Type.Literal('included'), Type.Literal('extra'), Type.Literal('substitution')]),
  tier_label: Type.String(),
  image_url: Nullable(Type.String({ description: 'absolute URL of the first image' })),
  city: Nullable(Type.String({ description: 'City, Country' })),
  reasons: Nullable(Type.Array(Type.String())),
  amenities: Nullable(
    Type.Array(Type.Object({ icon: Type.String(), label: Type.String(), description: Type.String() })),
  ),
});

const Stay = Type.Object({
  day_start: Type.Integer({ description: 'first tour day (night) at the hotel' }),
  day_end: Type.Integer({ description: 'last tour day (night) at the hotel' }),
  nights: Type.Integer(),
  hotel: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    description: Nullable(Type.String()),
    city: Nullable(Type.String({ description: 'City, Country' })),
    stars: Nullable(Type.Integer()),
    image_url: Nullable(Type.String()),
  }),
});

const ProductDetail = Type.Intersect([
  ProductItem,
  Type.Object({
    accommodations: Type.Array(
      Type.Object({
        tier: Type.Union([Type.Literal('selection'), Type.Literal('luxury'), Type.Literal('grand_luxury')]),
        tier_label: Type.String(),
        stays: Type.Array(Stay),
      }),
      { description: 'hotel stays grouped by tier (selection, luxury, grand_luxury), tiers without stays left out' },
    ),
    itinerary: Type.Array(
      Type.Object({
        city: Nullable(Type.String({ description: 'City, Country of the stop' })),
        day_start: Type.Integer(),
        day_end: Type.Integer(),
        days: Type.Array(
          Type.Object({
            day_number: Type.Integer(),
            title: Type.String(),
            description: Type.String(),
            city: Nullable(Type.String()),
            activities: Type.Array(DayActivity, { description: 'ordered by tier: included, extra, substitution' }),
          }),
        ),
      }),
      { description: 'stops: consecutive days in the same place' },
    ),
  }),
]);

// the named bodies: a storefront's generated client gets a type per shape (ProductSummary, Product...)
const ProductSummary = component('ProductSummary', ProductItem, 'A product as listings show it.');
const Product = component(
  'Product',
  ProductDetail,
  'A product page: the summary plus its accommodations by tier and the day-by-day itinerary.',
);

export const Listing = ref(
  component(
    'ProductListing',
    Type.Object({
      data: Type.Array(ref(ProductSummary)),
      meta: Type.Object({ market: Type.String(), locale: Type.String() }),
    }),
    "The market's published products in one language.",
  ),
);

export const Detail = Type.Object({ data: ref(Product) });

const LeadingPriceData = component(
  'LeadingPrice',
  Type.Object({
    product_by_market_id: Type.Integer(),
    price_from: Nullable(Type.String({ description: 'minimum price per person of bookable offers' })),
    currency: Type.String({ description: 'currency code of the market' }),
    offers_count: Type.Integer({ description: 'number of bookable offers' }),
  }),
  "A product's lowest bookable price per person.",
);

export const LeadingPrice = Type.Object({ data: ref(LeadingPriceData) });

const ConfiguratorData = component(
  'Configurator',
  Type.Object({
    product_id: Type.Integer(),
    departure_airports: Type.Array(Type.Object({ iata_code: Type.String(), city: Type.String() })),
    months: Type.Array(
      Type.Object({
        year: Type.Integer(),
        month: Type.Integer(),
        label: Type.String({ description: 'month name in the request language' }),
        min_price: Type.String(),
        min_price_per_person: Type.String(),
        dates: Type.Array(
          Type.Object({
            offer_id: Type.Integer(),
            date: Type.String({ description: 'YYYY-MM-DD' }),
            day_label: Type.String(),
            price: Type.String({ description: 'total for the offer pax_count travellers' }),
            price_per_person: Type.String(),
            available: Type.Boolean({ description: 'the remaining allotment still fits pax_count travellers' }),
            departure_airport: Type.String(),
          }),
        ),
      }),
    ),
    room_types: Type.Array(Type.Object({ code: Type.String(), label: Type.String() })),
    labels: Type.Object({
      information: Type.String(),
      origin: Type.String(),
      travelers: Type.String(),
      rooms: Type.String(),
      choose_date: Type.String(),
      configure_trip: Type.String(),
      help_text: Type.String(),
      per_person: Type.String(),
    }),
    currency: Type.Object({ code: Type.String(), symbol: Type.String() }),
  }),
  "A product's departure dates and prices by month, room types and labels (the checkout's offerId).",
);

export const Configurator = Type.Object({ data: ref(ConfiguratorData) });

/** The preview's additions: a draft's price and configurator, as the two endpoints would answer were it active. */
export const Preview = Type.Object({
  data: ref(
    component(
      'ProductPreview',
      Type.Intersect([
        ProductDetail,
        Type.Object({ leading_price: ref(LeadingPriceData), configurator: ref(ConfiguratorData) }),
      ]),
      'A product of any status but archived, with its leading price and configurator.',
    ),
  ),
});
