// Console pages of the catalog editor (issue 18 §4): market products, their tour's hotels and
// transfers, offers, departure rules and markets. Reading needs view_catalog; saving edit_catalog;
// a product that is not a draft, and every change of a product's status, publish_catalog. A save
// goes through the importer (service.ts); when the importer finds problems the form comes back
// (422) with each problem beside its field.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type FieldErrors, problemsToFields } from '../../console/forms.js';
import { guard, pageOf, sendPage } from '../../console/http.js';
import { allows } from '../../console/permissions.js';
import { confirmPage } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { previewUrlFor } from '../catalog/preview.js';
import { readablePreviewHref } from '../operations/preview.js';
import * as repo from './repository.js';
import { isStatusAction, permissionToChange, policyText, type Values, valuesOf } from './rules.js';
import * as editor from './service.js';
import * as views from './views.js';

const PER_PAGE = 50;

const DONE: Record<string, string> = {
  created: 'Created.',
  saved: 'Saved.',
  publish: 'Published: the product is public.',
  unpublish: 'Unpublished: the product is no longer public.',
  archive: 'Archived: hidden everywhere, kept for bookings.',
  restore: 'Restored as a draft.',
  archived: 'Offer archived: hidden everywhere, kept for its bookings.',
};
const doneOf = (request: FastifyRequest) => DONE[(request.query as { done?: string }).done ?? ''];

function numericParam(request: FastifyRequest, name = 'id'): number {
  const raw = (request.params as Record<string, string>)[name] ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw new AppError(404, 'not_found', 'No such record.');
  return Number(raw);
}

const clean = (s: string | undefined, max = 100) => (s ?? '').trim().slice(0, max);
const pageNumber = (s: string | undefined) => Math.max(1, Math.min(10_000, Number.parseInt(s ?? '1', 10) || 1));

/** Every field name a form shows (the keys of its values, plus those a list row may add). */
const fieldNames = (v: Values, extra: string[] = []) => [...Object.keys(v), ...extra];

// ------------------------------------------------------------------------------------ stored -> values

function productValues(mp: repo.ProductRecord, airports: string[], days: repo.DayRecord[], blankRow: boolean): Values {
  const v: Values = {
    title: mp.title,
    subtitle: mp.subtitle,
    short_description: mp.shortDescription,
    long_description: mp.longDescription,
    highlights: mp.highlights.join('\n'),
    destination_info: mp.destinationInfo,
    url_slug: mp.urlSlug,
    country_name: mp.countryName,
    hero_image: mp.heroImage ?? '',
    cancellation_policy: policyText(mp.cancellationPolicy),
    sort_order: String(mp.sortOrder),
    departure_airports: airports.join(', '),
  };
  days.forEach((d, i) => {
    Object.assign(v, {
      [`itinerary.${i}.day`]: String(d.day),
      [`itinerary.${i}.title`]: d.title,
      [`itinerary.${i}.description`]: d.description,
      [`itinerary.${i}.city`]: d.city ?? '',
      [`itinerary.${i}.country`]: d.country ?? '',
      [`itinerary.${i}.activities`]: d.activities.map((a) => `${a.activity} ${a.tier}`).join('\n'),
    });
  });
  if (blankRow) Object.assign(v, { [`itinerary.${days.length}.day`]: '', [`itinerary.${days.length}.title`]: '' });
  return v;
}

function templateValues(
  heroImage: string | null,
  parts: Awaited<ReturnType<typeof repo.templateParts>>,
  blank: boolean,
) {
  const v: Values = { hero_image: heroImage ?? '' };
  parts.accommodations.forEach((a, i) => {
    Object.assign(v, {
      [`accommodations.${i}.hotel`]: a.hotel,
      [`accommodations.${i}.tier`]: a.tier,
      [`accommodations.${i}.day_start`]: String(a.dayStart),
      [`accommodations.${i}.day_end`]: String(a.dayEnd),
    });
  });
  parts.dayTransfers.forEach((t, i) => {
    Object.assign(v, {
      [`day_transfers.${i}.day`]: String(t.day),
      [`day_transfers.${i}.transfer`]: t.transfer,
      [`day_transfers.${i}.kind`]: t.kind,
    });
  });
  if (blank) {
    const a = parts.accommodations.length;
    const t = parts.dayTransfers.length;
    Object.assign(v, {
      [`accommodations.${a}.hotel`]: '',
      [`accommodations.${a}.tier`]: 'selection',
      [`accommodations.${a}.day_start`]: '',
      [`accommodations.${a}.day_end`]: '',
      [`day_transfers.${t}.day`]: '',
      [`day_transfers.${t}.transfer`]: '',
      [`day_transfers.${t}.kind`]: 'included',
    });
  }
  return v;
}

function offerValues(o: repo.OfferRecord): Values {
  return {
    departure_airport: o.departureAirport,
    departure_date: o.departureDate,
    return_date: o.returnDate ?? '',
    status: o.status,
    pax_count: String(o.paxCount),
    allotment: String(o.allotment),
    land_base_price: o.landBasePrice,
    flight_price: o.flightPrice,
    margin_percent: o.marginPercent,
    final_price: o.finalPrice,
    price_per_person: o.pricePerPerson,
  };
}

function ruleValues(r: repo.RuleRecord): Values {
  return {
    departure_airport: r.departureAirport,
    weekdays: r.weekdays.join(','),
    dates: r.dates.join(', '),
    season_start: r.seasonStart,
    season_end: r.seasonEnd,
    pax_count: String(r.paxCount),
    seats: String(r.seats),
    margin_percent: r.marginPercent,
    fallback_flight_price: r.fallbackFlightPrice ?? '',
    active: r.active ? '1' : '',
  };
}

function marketValues(m: repo.MarketRecord): Values {
  const v: Values = {
    name: m.name,
    is_active: m.isActive ? '1' : '',
    languages: m.languages.join(', '),
    default_language: m.defaultLanguage,
    'currency.code': m.currencyCode,
    'currency.name': m.currencyName,
    'currency.symbol': m.currencySymbol,
    timezone: m.timezone,
    airports: m.airports.join(', '),
  };
  for (const l of m.languages) v[`tour_path_slugs.${l}`] = m.tourPathSlugs[l] ?? '';
  return v;
}

const noProblems = (): FieldErrors => ({});

/** The form again with the importer's problems beside their fields. */
function failed(result: Extract<editor.SaveResult, { ok: false }>, values: Values, extra: string[] = []) {
  return {
    values,
    problems: problemsToFields(result.problems, result.prefix, {
      fields: fieldNames(values, extra),
      rows: result.rows,
    }),
  };
}

// ------------------------------------------------------------------------------------ pages

export async function catalogEditorConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_catalog') };
  const edit = { schema: { hide: true }, preHandler: guard(ctx, 'edit_catalog') };
  const publish = { schema: { hide: true }, preHandler: guard(ctx, 'publish_catalog') };
  const db = () => ctx.database.db;

  const marketCodes = async () => (await repo.listMarkets(db())).map((m) => m.code);

  app.get('/admin/catalog', view, async (_request, reply) => reply.redirect('/admin/catalog/products', 303));

  // -------------------------------------------------------------------------- products

  app.get('/admin/catalog/products', view, async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const filter = { market: clean(q.market, 3), status: clean(q.status, 20), q: clean(q.q) };
    const page = pageNumber(q.page);
    const data = await repo.listProducts(db(), filter, page, PER_PAGE);
    return sendPage(reply, views.productList(pageOf(request), data, filter, await marketCodes(), page, PER_PAGE));
  });

  app.get('/admin/catalog/products/new', edit, async (request, reply) => {
    // "add es" on a product page names the tour, market and language
    const q = request.query as Record<string, string | undefined>;
    const values = { template: clean(q.template), market: clean(q.market, 3), language: clean(q.language, 2) };
    const form = { values, problems: noProblems() };
    return sendPage(reply, views.newProductPage(pageOf(request), form, await repo.choices(db())));
  });

  app.post('/admin/catalog/products', edit, async (request, reply) => {
    const p = pageOf(request);
    const values = valuesOf(request.body);
    const result = await editor.createProduct(ctx, p.actor, values);
    if (result.ok) return reply.redirect(`/admin/catalog/products/${result.id}?done=created`, 303);
    return sendPage(reply, views.newProductPage(p, failed(result, values), await repo.choices(db())), 422);
  });

  /** The product page; `form` / `template` replace the stored values after a refused save. */
  async function productPage(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    over: { form?: views.FormState; template?: views.FormState; status?: number } = {},
  ) {
    const p = pageOf(request);
    const mp = await repo.productRow(db(), id);
    if (!mp) throw new AppError(404, 'product_not_found', 'No such market product.');
    const [airports, days, parts, choices, offers, rules] = await Promise.all([
      repo.productAirports(db(), id),
      repo.productDays(db(), id),
      repo.templateParts(db(), mp.templateId),
      repo.choices(db()),
      repo.listOffers(db(), { product: id }, 1, 500),
      repo.productRules(db(), id),
    ]);
    const [tpl, siblings] = await Promise.all([
      repo.templateByCode(db(), mp.template),
      repo.siblingLanguages(db(), mp.templateId, mp.marketId),
    ]);
    const marketLanguages = choices.markets.find((m) => m.code === mp.market)?.languages ?? [];
    const languages = new Map([...marketLanguages, ...siblings.keys()].map((l) => [l, siblings.get(l)]));
    const mayEdit = allows(p.actor.grant, 'edit_catalog') && allows(p.actor.grant, permissionToChange(mp.status));
    const mayEditTemplate =
      allows(p.actor.grant, 'edit_catalog') &&
      (parts.nonDraftProducts === 0 || allows(p.actor.grant, 'publish_catalog'));
    const form = over.form ?? {
      values: productValues(mp, airports, days, mayEdit),
      problems: noProblems(),
    };
    const template = over.template ?? {
      values: templateValues(tpl?.heroImage ?? null, parts, mayEditTemplate),
      problems: noProblems(),
    };
    return sendPage(
      reply,
      views.productPage(p, {
        product: mp,
        form: { ...form, readOnly: !mayEdit },
        template: { ...template, readOnly: !mayEditTemplate, scope: 'tour' },
        templateNonDraft: parts.nonDraftProducts,
        choices,
        offers: offers.rows,
        rules,
        languages,
        done: doneOf(request),
      }),
      over.status ?? 200,
    );
  }

  app.get('/admin/catalog/products/:id', view, async (request, reply) =>
    productPage(request, reply, numericParam(request)),
  );

  app.post('/admin/catalog/products/:id', edit, async (request, reply) => {
    const id = numericParam(request);
    const values = valuesOf(request.body);
    const result = await editor.saveProduct(ctx, pageOf(request).actor, id, values);
    if (result.ok) return reply.redirect(`/admin/catalog/products/${id}?done=saved`, 303);
    return productPage(request, reply, id, { form: failed(result, values), status: 422 });
  });

  app.post('/admin/catalog/templates/:code', edit, async (request, reply) => {
    const code = (request.params as { code: string }).code;
    const values = valuesOf(request.body);
    const productId = /^\d{1,9}$/.test(values.product ?? '') ? Number(values.product) : undefined;
    delete values.product;
    const result = await editor.saveTemplate(ctx, pageOf(request).actor, code, values);
    const back = productId ? `/admin/catalog/products/${productId}` : '/admin/catalog/products';
    if (result.ok) return reply.redirect(`${back}?done=saved`, 303);
    if (!productId) throw new AppError(422, 'template_refused', result.problems.map((p) => p.reason).join('; '));
    return productPage(request, reply, productId, { template: failed(result, values), status: 422 });
  });

  // a fresh signed URL each time the button is used (valid PREVIEW_URL_TTL_MINUTES)
  app.get('/admin/catalog/products/:id/preview', view, async (request, reply) => {
    const url = await previewUrlFor(ctx.database, ctx.config, numericParam(request), ctx.clock.now());
    if (!url) throw new AppError(404, 'product_not_found', 'No such market product.');
    // the readable page, with the signed JSON link beside it
    return reply.redirect(readablePreviewHref(url), 303);
  });

  app.post('/admin/catalog/products/:id/archive/confirm', publish, async (request, reply) => {
    const id = numericParam(request);
    const mp = await repo.productRow(db(), id);
    if (!mp) throw new AppError(404, 'product_not_found', 'No such market product.');
    return sendPage(
      reply,
      confirmPage(pageOf(request), {
        title: `Archive ${mp.title}?`,
        message: `The product ${mp.template} (${mp.market}/${mp.language}) will be hidden everywhere. Its offers and bookings are kept; it can be restored as a draft.`,
        action: `/admin/catalog/products/${id}/status/archive`,
        button: 'Archive',
        back: `/admin/catalog/products/${id}`,
      }),
    );
  });

  app.post('/admin/catalog/products/:id/status/:action', publish, async (request, reply) => {
    const id = numericParam(request);
    const action = (request.params as { action: string }).action;
    if (!isStatusAction(action)) throw new AppError(404, 'not_found', 'No such action.');
    await editor.setProductStatus(ctx, pageOf(request).actor, id, action);
    return reply.redirect(`/admin/catalog/products/${id}?done=${action}`, 303);
  });

  // -------------------------------------------------------------------------- offers

  app.get('/admin/catalog/offers', view, async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const filter = { market: clean(q.market, 3), status: clean(q.status, 20), q: clean(q.q) };
    const page = pageNumber(q.page);
    const data = await repo.listOffers(db(), filter, page, PER_PAGE);
    return sendPage(reply, views.offerList(pageOf(request), data, filter, await marketCodes(), page, PER_PAGE));
  });

  async function offerPage(
    request: FastifyRequest,
    reply: FastifyReply,
    productId: number,
    offerId: number | undefined,
    form?: views.FormState,
    status = 200,
  ) {
    const p = pageOf(request);
    const product = await repo.productRow(db(), productId);
    if (!product) throw new AppError(404, 'product_not_found', 'No such market product.');
    const offer = offerId === undefined ? undefined : await repo.offerRow(db(), offerId);
    if (offerId !== undefined && !offer) throw new AppError(404, 'offer_not_found', 'No such offer.');
    const airports = await repo.productAirports(db(), productId);
    const blank: Values = {
      status: 'Draft',
      pax_count: '2',
      margin_percent: '0',
      departure_airport: airports[0] ?? '',
    };
    const values = offer ? offerValues(offer) : blank;
    const state = form ?? { values, problems: noProblems() };
    return sendPage(
      reply,
      views.offerPage(p, {
        product,
        offer,
        airports,
        form: { ...state, readOnly: !allows(p.actor.grant, 'edit_catalog') },
        done: doneOf(request),
      }),
      status,
    );
  }

  app.get('/admin/catalog/offers/:id', view, async (request, reply) => {
    const offer = await repo.offerRow(db(), numericParam(request));
    if (!offer) throw new AppError(404, 'offer_not_found', 'No such offer.');
    return offerPage(request, reply, offer.marketProductId, offer.id);
  });

  app.post('/admin/catalog/offers/:id', edit, async (request, reply) => {
    const offer = await repo.offerRow(db(), numericParam(request));
    if (!offer) throw new AppError(404, 'offer_not_found', 'No such offer.');
    const values = valuesOf(request.body);
    const result = await editor.saveOffer(ctx, pageOf(request).actor, offer.marketProductId, offer.id, values);
    if (result.ok) return reply.redirect(`/admin/catalog/offers/${offer.id}?done=saved`, 303);
    return offerPage(request, reply, offer.marketProductId, offer.id, failed(result, values), 422);
  });

  app.post('/admin/catalog/offers/:id/archive', edit, async (request, reply) => {
    const id = numericParam(request);
    await editor.archiveOffer(ctx, pageOf(request).actor, id);
    return reply.redirect(`/admin/catalog/offers/${id}?done=archived`, 303);
  });

  app.get('/admin/catalog/products/:id/offers/new', edit, async (request, reply) =>
    offerPage(request, reply, numericParam(request), undefined),
  );

  app.post('/admin/catalog/products/:id/offers', edit, async (request, reply) => {
    const productId = numericParam(request);
    const values = valuesOf(request.body);
    const result = await editor.saveOffer(ctx, pageOf(request).actor, productId, undefined, values);
    if (result.ok) return reply.redirect(`/admin/catalog/offers/${result.id}?done=created`, 303);
    return offerPage(request, reply, productId, undefined, failed(result, values, ['code']), 422);
  });

  // -------------------------------------------------------------------------- departure rules

  async function rulePage(
    request: FastifyRequest,
    reply: FastifyReply,
    productId: number,
    rule: repo.RuleRecord | undefined,
    form?: views.FormState,
    status = 200,
  ) {
    const p = pageOf(request);
    const product = await repo.productRow(db(), productId);
    if (!product) throw new AppError(404, 'product_not_found', 'No such market product.');
    const airports = await repo.productAirports(db(), productId);
    const blank: Values = { pax_count: '2', margin_percent: '0', active: '1', departure_airport: airports[0] ?? '' };
    const state = form ?? { values: rule ? ruleValues(rule) : blank, problems: noProblems() };
    return sendPage(
      reply,
      views.rulePage(p, {
        product,
        rule,
        airports,
        form: { ...state, readOnly: !allows(p.actor.grant, 'edit_catalog') },
        done: doneOf(request),
      }),
      status,
    );
  }

  app.get('/admin/catalog/rules/:id', view, async (request, reply) => {
    const rule = await repo.ruleRow(db(), numericParam(request));
    if (!rule) throw new AppError(404, 'rule_not_found', 'No such rule.');
    return rulePage(request, reply, rule.marketProductId, rule);
  });

  app.post('/admin/catalog/rules/:id', edit, async (request, reply) => {
    const rule = await repo.ruleRow(db(), numericParam(request));
    if (!rule) throw new AppError(404, 'rule_not_found', 'No such rule.');
    const values = valuesOf(request.body);
    const result = await editor.saveRule(ctx, pageOf(request).actor, rule.marketProductId, rule.id, values);
    if (result.ok) return reply.redirect(`/admin/catalog/rules/${rule.id}?done=saved`, 303);
    return rulePage(request, reply, rule.marketProductId, rule, failed(result, values, ['weekdays', 'dates']), 422);
  });

  app.get('/admin/catalog/products/:id/rules/new', edit, async (request, reply) =>
    rulePage(request, reply, numericParam(request), undefined),
  );

  app.post('/admin/catalog/products/:id/rules', edit, async (request, reply) => {
    const productId = numericParam(request);
    const values = valuesOf(request.body);
    const result = await editor.saveRule(ctx, pageOf(request).actor, productId, undefined, values);
    if (result.ok) return reply.redirect(`/admin/catalog/rules/${result.id}?done=created`, 303);
    const form = failed(result, values, ['code', 'weekdays', 'dates']);
    return rulePage(request, reply, productId, undefined, form, 422);
  });

  // -------------------------------------------------------------------------- markets

  app.get('/admin/catalog/markets', view, async (request, reply) =>
    sendPage(reply, views.marketList(pageOf(request), await repo.listMarkets(db()))),
  );

  app.get('/admin/catalog/markets/new', edit, async (request, reply) => {
    const form = { values: { is_active: '' }, problems: noProblems() };
    return sendPage(reply, views.marketPage(pageOf(request), { form }));
  });

  app.post('/admin/catalog/markets', edit, async (request, reply) => {
    const values = valuesOf(request.body);
    const result = await editor.saveMarket(ctx, pageOf(request).actor, undefined, values);
    if (result.ok) return reply.redirect(`/admin/catalog/markets/${result.id}?done=created`, 303);
    const form = failed(result, values, ['code', 'is_active']);
    return sendPage(reply, views.marketPage(pageOf(request), { form }), 422);
  });

  app.get('/admin/catalog/markets/:code', view, async (request, reply) => {
    const p = pageOf(request);
    const market = await repo.marketRow(db(), (request.params as { code: string }).code);
    if (!market) throw new AppError(404, 'market_not_found', 'No such market.');
    const form = {
      values: marketValues(market),
      problems: noProblems(),
      readOnly: !allows(p.actor.grant, 'edit_catalog'),
    };
    return sendPage(reply, views.marketPage(p, { market, form, done: doneOf(request) }));
  });

  app.post('/admin/catalog/markets/:code', edit, async (request, reply) => {
    const market = await repo.marketRow(db(), (request.params as { code: string }).code);
    if (!market) throw new AppError(404, 'market_not_found', 'No such market.');
    const values = valuesOf(request.body);
    const result = await editor.saveMarket(ctx, pageOf(request).actor, market.code, values);
    if (result.ok) return reply.redirect(`/admin/catalog/markets/${market.code}?done=saved`, 303);
    return sendPage(
      reply,
      views.marketPage(pageOf(request), { market, form: failed(result, values, ['is_active']) }),
      422,
    );
  });
}
