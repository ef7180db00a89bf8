// JSON Schemas (TypeBox) of the catalog's top-level keys in the import document. The same
// objects validate documents (typebox/compile) and are written to docs/import-format.schema.json.
// Money and rates are decimal strings so no value passes through binary floating point.
import { type Static, type TProperties, Type } from 'typebox';

const Code = Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: 'lower-case natural key' });
const Iata = Type.String({ pattern: '^[A-Z]{3}$', description: 'IATA airport code' });
const Lang = Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1 language code' });
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' });
const Money = Type.String({ pattern: '^\\d{1,10}(?:\\.\\d{1,2})?$', description: 'decimal amount, e.g. "1234.50"' });
const Rate = Type.String({ pattern: '^\\d{1,10}(?:\\.\\d{1,8})?$', description: 'decimal rate, e.g. "1.0832"' });
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Text = Type.String({ minLength: 1 });
const Images = Type.Array(Type.String({ minLength: 1 }), {
  description: 'storage paths (joined to ASSET_BASE_URL) or absolute URLs',
});
const Day = Type.Integer({ minimum: 1, maximum: 60 });
/** a field that may be left out (the stored value stays) or null (the stored value is cleared) */
const Nullable = <T extends Parameters<typeof Type.Optional>[0]>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const Opt = Type.Optional;

export const ROOM_TYPE_PATTERN = '^[1-9]A(?:\\+[1-9]CH)?$';
export const ACCOMMODATION_TIERS = ['selection', 'luxury', 'grand_luxury'] as const;
export const ACTIVITY_TIERS = ['included', 'extra', 'substitution'] as const;
export const PRODUCT_STATUSES = ['active', 'draft', 'inactive', 'archived'] as const;
export const OFFER_STATUSES = ['Active', 'Inactive', 'SoldOut', 'Cancelled', 'Draft', 'Archived'] as const;

export const MarketInput = Type.Object(
  {
    code: Type.String({ pattern: '^[a-z]{2,3}$' }),
    name: Opt(Text),
    is_active: Opt(Type.Boolean({ description: 'required for a new market' })),
    languages: Opt(Type.Array(Lang, { minItems: 1, description: 'supported languages, default first' })),
    tour_path_slugs: Type.Optional(
      Type.Record(Type.String(), Type.String({ minLength: 1 }), {
        description: 'language -> localized path segment of product pages',
      }),
    ),
    currency: Opt(Type.Object({ code: Currency, name: Text, symbol: Text }, { additionalProperties: false })),
    timezone: Opt(Type.String({ minLength: 1, description: 'IANA time zone, e.g. Europe/Madrid' })),
    airports: Opt(Type.Array(Iata, { description: 'departure airports of the market, primary first' })),
  },
  { additionalProperties: false },
);

/**
 * Per-language texts of a supply record: language code -> the fields it translates. An entry
 * updates only the fields it names (null clears one: it falls back again); `"<lang>": null`
 * removes the language's translation. Reads fall back field by field: the requested language,
 * the market's default language, English, then the record's own text.
 */
const Translations = <T extends TProperties>(fields: T, what: string) =>
  Type.Optional(
    Type.Record(
      Type.String({ pattern: '^[a-z]{2}$' }),
      Type.Union([Type.Object(fields, { additionalProperties: false }), Type.Null()]),
      {
        additionalProperties: false,
        description: `${what} in other languages: ISO 639-1 code -> the translated fields (each optional; null clears a field, a null entry removes the language)`,
      },
    ),
  );

export const AirportInput = Type.Object(
  {
    iata_code: Iata,
    name: Opt(Text),
    city: Opt(Text),
    country: Opt(Text),
    translations: Translations(
      { name: Nullable(Text), city: Nullable(Text), country: Nullable(Text) },
      'the airport name, city and country',
    ),
  },
  { additionalProperties: false },
);

export const ExchangeRateInput = Type.Object(
  { currency: Currency, rate_per_eur: Rate },
  { additionalProperties: false, description: 'units of the currency per 1 EUR' },
);

const Place = {
  city: Nullable(Type.String()),
  country: Nullable(Type.String()),
};

/** who confirms the booked service: the supplier confirmation requests go to this e-mail */
const Supplier = Nullable(
  Type.Object(
    {
      email: Type.String({ pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', maxLength: 255 }),
      name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
      phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
    },
    {
      additionalProperties: false,
      description: 'the supplier contact that confirms bookings of this service (null removes it)',
    },
  ),
);

/** the translatable texts of hotels and transfers */
const NamedPlaceTexts = { name: Nullable(Text), description: Nullable(Type.String()), ...Place };

export const HotelInput = Type.Object(
  {
    code: Code,
    name: Opt(Text),
    ...Place,
    description: Nullable(Type.String()),
    images: Type.Optional(Images),
    stars: Nullable(Type.Integer({ minimum: 1, maximum: 5 })),
    supplier: Supplier,
    translations: Translations(NamedPlaceTexts, 'the hotel name, description, city and country'),
    rates: Type.Optional(
      Type.Array(
        Type.Object(
          { room_type: Type.String({ pattern: ROOM_TYPE_PATTERN }), price_per_night: Money, currency: Currency },
          { additionalProperties: false },
        ),
        { description: 'supplier price per room and night for each room type (1A, 2A, 3A, 4A, 2A+1CH)' },
      ),
    ),
  },
  { additionalProperties: false },
);

const Amenity = Type.Object(
  { icon: Type.String(), label: Type.String(), description: Type.String() },
  { additionalProperties: false },
);

export const ActivityInput = Type.Object(
  {
    code: Code,
    name: Opt(Text),
    description: Nullable(Type.String()),
    ...Place,
    images: Type.Optional(Images),
    reasons: Nullable(Type.Array(Type.String())),
    amenities: Nullable(Type.Array(Amenity)),
    supplier: Supplier,
    translations: Translations(
      {
        ...NamedPlaceTexts,
        reasons: Nullable(Type.Array(Type.String())),
        amenities: Nullable(Type.Array(Amenity)),
      },
      'the activity name, description, city, country, reasons and amenities',
    ),
    rate: Nullable(
      Type.Object(
        { price_per_person: Money, currency: Currency },
        { additionalProperties: false, description: 'null: no price available (the stored rate is removed)' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const TransferInput = Type.Object(
  {
    code: Code,
    name: Opt(Text),
    description: Nullable(Type.String()),
    ...Place,
    images: Type.Optional(Images),
    vehicle_type: Nullable(Type.String()),
    duration_minutes: Nullable(Type.Integer({ minimum: 1 })),
    supplier: Supplier,
    translations: Translations(NamedPlaceTexts, 'the transfer name, description, city and country'),
    rate: Nullable(
      Type.Object(
        { price_per_trip: Money, currency: Currency },
        { additionalProperties: false, description: 'null: no price available (the stored rate is removed)' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ProductTemplateInput = Type.Object(
  {
    code: Code,
    slug: Type.Optional(Code),
    title: Opt(Text),
    trip_duration_days: Opt(Day),
    country_slug: Opt(Code),
    hero_image: Nullable(Type.String()),
    package_service_name: Nullable(Type.String({ description: 'legacy package tours only' })),
    accommodations: Type.Optional(
      Type.Array(
        Type.Object(
          { hotel: Code, tier: Type.Enum([...ACCOMMODATION_TIERS]), day_start: Day, day_end: Day },
          { additionalProperties: false, description: 'hotel nights of one tier from day_start to day_end' },
        ),
      ),
    ),
    day_transfers: Type.Optional(
      Type.Array(
        Type.Object(
          { day: Day, transfer: Code, kind: Type.Enum(['included', 'upsell']) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

export const OfferInput = Type.Object(
  {
    code: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' }),
    departure_airport: Opt(Iata),
    departure_date: Opt(IsoDate),
    return_date: Nullable(IsoDate),
    status: Opt(Type.Enum([...OFFER_STATUSES])),
    pax_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 9, default: 2 })),
    allotment: Opt(Type.Integer({ minimum: 0 })),
    allotment_used: Type.Optional(
      Type.Integer({
        minimum: 0,
        default: 0,
        description: 'seats already taken; an import keeps the greater of this and the stored count',
      }),
    ),
    land_base_price: Opt(Money),
    flight_price: Opt(Money),
    margin_percent: Type.Optional(Type.String({ pattern: '^\\d{1,3}(?:\\.\\d{1,2})?$' })),
    final_price: Opt(Money),
    price_per_person: Opt(Money),
    flight_data: Nullable(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

export const ItineraryDayInput = Type.Object(
  {
    day: Day,
    title: Text,
    description: Type.Optional(Type.String()),
    ...Place,
    activities: Type.Optional(
      Type.Array(
        Type.Object({ activity: Code, tier: Type.Enum([...ACTIVITY_TIERS]) }, { additionalProperties: false }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const MarketProductInput = Type.Object(
  {
    template: Code,
    market: Type.String({ pattern: '^[a-z]{2,3}$' }),
    language: Lang,
    version: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    status: Opt(Type.Enum([...PRODUCT_STATUSES])),
    sort_order: Type.Optional(Type.Integer({ default: 0 })),
    title: Opt(Text),
    subtitle: Type.Optional(Type.String()),
    short_description: Type.Optional(Type.String()),
    long_description: Type.Optional(Type.String()),
    highlights: Type.Optional(Type.Array(Type.String())),
    destination_info: Type.Optional(Type.String()),
    url_slug: Opt(Code),
    country_name: Opt(Text),
    hero_image: Nullable(Type.String()),
    cancellation_policy: Nullable(
      Type.Array(
        Type.Object(
          {
            days_before_departure: Type.Integer({ minimum: 0 }),
            fee_percent: Type.Number({ minimum: 0, maximum: 100 }),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          description:
            'cancellation fee steps (% of the total from N days before departure; one step at 0 days); null: CANCELLATION_POLICY',
        },
      ),
    ),
    departure_airports: Opt(Type.Array(Iata, { minItems: 1, description: 'first one is the SKU airport' })),
    itinerary: Type.Optional(Type.Array(ItineraryDayInput)),
    offers: Type.Optional(Type.Array(OfferInput)),
  },
  { additionalProperties: false },
);

/** The catalog's top-level keys; every one is optional so partial documents import too. */
export const catalogProperties = {
  markets: Type.Array(MarketInput),
  airports: Type.Array(AirportInput),
  exchange_rates: Type.Array(ExchangeRateInput),
  hotels: Type.Array(HotelInput),
  activities: Type.Array(ActivityInput),
  transfers: Type.Array(TransferInput),
  product_templates: Type.Array(ProductTemplateInput),
  market_products: Type.Array(MarketProductInput),
};

export type MarketDoc = Static<typeof MarketInput>;
export type AirportDoc = Static<typeof AirportInput>;
export type ExchangeRateDoc = Static<typeof ExchangeRateInput>;
export type HotelDoc = Static<typeof HotelInput>;
export type ActivityDoc = Static<typeof ActivityInput>;
export type TransferDoc = Static<typeof TransferInput>;
export type ProductTemplateDoc = Static<typeof ProductTemplateInput>;
export type MarketProductDoc = Static<typeof MarketProductInput>;
export type OfferDoc = Static<typeof OfferInput>;

export interface CatalogDoc {
  markets?: MarketDoc[];
  airports?: AirportDoc[];
  exchange_rates?: ExchangeRateDoc[];
  hotels?: HotelDoc[];
  activities?: ActivityDoc[];
  transfers?: TransferDoc[];
  product_templates?: ProductTemplateDoc[];
  market_products?: MarketProductDoc[];
}
