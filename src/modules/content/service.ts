// Content use cases: each renders one response body for a market scope. Rendered bodies are
// cached per locale by ResponseCache (see routes.ts) and dropped when the catalog changes.
import type { AppContext } from '../../context.js';
import type { ContentMedia, RegionExperiences } from '../../db/schema/content.js';
import { dateIn } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { assetUrl } from '../../platform/urls.js';
import { leadingPrice } from '../catalog/rules.js';
import { type Tour, toursByTemplateCode } from '../catalog/tours.js';
import type { MarketScope } from '../markets/rules.js';
import { productPath } from '../markets/rules.js';
import {
  type CountryRow,
  countryTemplateCodes,
  findAboutUs,
  findCountries,
  findCountry,
  findLabels,
  findRegions,
  type RegionRow,
} from './repository.js';
import { durationLabel, itineraryLine, resolveLabels, visibleTrailers } from './rules.js';

export class ContentService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  private asset(value: string | null | undefined): string | null {
    return assetUrl(this.ctx.config.assetBaseUrl, value);
  }

  private today(scope: MarketScope): string {
    return dateIn(scope.market.timezone, this.ctx.clock.now());
  }

  private media(m: ContentMedia | null): { src: string | null; alt: string | null } | null {
    return m ? { src: this.asset(m.src), alt: m.alt } : null;
  }

  private tourPath(scope: MarketScope, tour: Tour): string {
    return productPath(scope.market, scope.lang, tour.urlSlug);
  }

  private listedCountry(c: CountryRow) {
    return {
      slug: c.slug,
      name: c.name,
      description: c.description,
      image: this.asset(c.image),
      images: c.images.map((i) => this.asset(i)).filter((i): i is string => i !== null),
      population: c.population,
      area: c.area,
      currency: c.currency,
      bestTime: c.bestTime,
      languages: c.languages,
      populationLabel: c.populationLabel,
      areaLabel: c.areaLabel,
      currencyLabel: c.currencyLabel,
      bestTimeLabel: c.bestTimeLabel,
      languagesLabel: c.languagesLabel,
    };
  }

  private experiences(scope: MarketScope, e: RegionExperiences | null, tours: Map<string, Tour>) {
    if (!e) return null;
    return {
      intro: {
        eyebrow: e.intro.eyebrow,
        title: e.intro.title,
        description: e.intro.description,
        media: this.media(e.intro.media),
        previewMedia: this.media(e.intro.previewMedia),
      },
      phases: e.phases.map((p) => ({
        id: p.id,
        title: p.title,
        caption: p.caption,
        experienceName: p.experienceName,
        modalTitle: p.modalTitle,
        triggerAriaLabel: p.triggerAriaLabel,
        media: this.media(p.media),
        // tours not sold (active) in this market and language drop out
        relatedTrips: p.products.flatMap((code) => {
          const tour = tours.get(code);
          if (!tour) return [];
          return [
            {
              id: String(tour.marketProductId),
              href: `${this.ctx.config.frontendUrl}${this.tourPath(scope, tour)}`,
              country: tour.countryName,
              title: tour.title,
              itinerary: itineraryLine(tour.cities),
              duration: durationLabel(tour.durationDays, scope.lang),
            },
          ];
        }),
      })),
    };
  }

  private async renderRegions(scope: MarketScope, slug?: string, preview = false) {
    const rows = await findRegions(this.db, scope.locale, slug, preview);
    const countryRows = await findCountries(
      this.db,
      scope.locale,
      rows.map((r) => r.id),
    );
    const codes = rows.flatMap((r) => r.experiences?.phases.flatMap((p) => p.products) ?? []);
    const tours = await toursByTemplateCode(this.db, scope.locale, codes, this.today(scope));
    return rows.map((r: RegionRow) => ({
      slug: r.slug,
      name: r.name,
      description: r.description,
      image: this.asset(r.image),
      fullWidthImage: this.asset(r.fullWidthImage),
      quote: r.quote,
      experiences: this.experiences(scope, r.experiences, tours),
      ctaHeading: r.ctaHeading,
      ctaSubheading: r.ctaSubheading,
      ctaButtonText: r.ctaButtonText,
      countries: countryRows.filter((c) => c.regionId === r.id).map((c) => this.listedCountry(c)),
    }));
  }

  async regions(scope: MarketScope) {
    return { data: await this.renderRegions(scope) };
  }

  /** `preview`: the region in any status (its countries and tours as the public sees them). */
  async region(scope: MarketScope, slug: string, preview = false) {
    const [region] = await this.renderRegions(scope, slug.toLowerCase(), preview);
    if (!region) throw new AppError(404, 'region_not_found', `Region '${slug}' not found.`);
    return { data: region };
  }

  async labels(scope: MarketScope) {
    const row = await findLabels(this.db, scope.locale);
    return {
      data: resolveLabels(
        row && {
          hero_button_primary: row.heroButtonPrimary,
          hero_button_secondary: row.heroButtonSecondary,
          newsletter_heading: row.newsletterHeading,
          newsletter_name_placeholder: row.newsletterNamePlaceholder,
          newsletter_email_placeholder: row.newsletterEmailPlaceholder,
          newsletter_button_text: row.newsletterButtonText,
        },
        scope.lang,
      ),
    };
  }

  /** `preview`: the country and its region in any status (related countries and tours as public). */
  async country(scope: MarketScope, slug: string, preview = false) {
    const notFound = () => new AppError(404, 'country_not_found', `Country '${slug}' not found.`);
    const country = await findCountry(this.db, scope.locale, slug.toLowerCase(), preview);
    if (!country) throw notFound();
    // a country shows only inside a visible region (active, translated)
    const [region] = (await findRegions(this.db, scope.locale, undefined, preview)).filter(
      (r) => r.id === country.regionId,
    );
    if (!region) throw notFound();
    const [codes, siblings] = await Promise.all([
      countryTemplateCodes(this.db, country.id),
      findCountries(this.db, scope.locale, [region.id]),
    ]);
    const today = this.today(scope);
    const tours = await toursByTemplateCode(this.db, scope.locale, codes, today);
    const known = new Set(codes);
    return {
      data: {
        ...this.listedCountry(country),
        tagline: country.tagline,
        experiences: country.experiences.map((e) => {
          const tour = e.product && known.has(e.product) ? tours.get(e.product) : undefined;
          return {
            image: this.asset(e.image),
            title: e.title,
            tag: e.tag,
            description: e.description,
            product: tour
              ? {
                  id: tour.marketProductId,
                  title: tour.title,
                  slug: tour.urlSlug,
                  path: this.tourPath(scope, tour),
                  durationDays: tour.durationDays,
                  priceFrom: leadingPrice(tour.offers, today),
                  currency: scope.market.currency.code,
                  image: this.asset(tour.heroImage),
                  itinerary: itineraryLine(tour.cities),
                }
              : null,
          };
        }),
        region: { slug: region.slug, name: region.name },
        relatedCountries: siblings
          .filter((c) => c.id !== country.id)
          .map((c) => ({
            slug: c.slug,
            name: c.name,
            tagline: c.tagline,
            image: this.asset(c.image),
            region: region.name,
          })),
      },
    };
  }

  /** `preview`: the page and its translation in any status. */
  async aboutUs(scope: MarketScope, preview = false) {
    const page = await findAboutUs(this.db, scope.locale, preview);
    if (!page) return { data: null };
    const video = this.asset(page.videoUrl);
    return {
      data: {
        headerSection: {
          title: page.title,
          leadCaption: page.leadCaption,
          supportingCaption: page.supportingCaption,
          media: video ? { kind: 'video' as const, src: video, title: page.title } : null,
        },
        captionSection: { text: page.description },
        trailersSection: { items: visibleTrailers(page.trailers, this.ctx.config.assetBaseUrl) },
      },
    };
  }

  async home(scope: MarketScope) {
    const rows = await findRegions(this.db, scope.locale);
    const countryRows = await findCountries(
      this.db,
      scope.locale,
      rows.map((r) => r.id),
    );
    const { data: labels } = await this.labels(scope);
    return {
      data: {
        regions: rows.map((r) => ({
          slug: r.slug,
          name: r.name,
          description: r.description,
          quote: r.quote,
          image: this.asset(r.image),
          fullWidthImage: this.asset(r.fullWidthImage),
          ctaButtonText: r.ctaButtonText,
          countries: countryRows
            .filter((c) => c.regionId === r.id)
            .map((c) => ({ slug: c.slug, name: c.name, image: this.asset(c.image) })),
        })),
        labels,
      },
    };
  }
}
