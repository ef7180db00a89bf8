// Use cases of the catalog editor. Every save builds the import-document fragment of one record
// and runs it through the importer (runImport: the same checks as `npm run import`, merge
// semantics, one transaction, the catalog revision bumped and 'catalog:changed' announced in this
// process), so the public API shows the change at once and every other process on its next read.
// Each use case checks its permission again (the route's guard is the first check) and writes the
// audit log.

import { assertAllowed } from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import type { ImportProblem } from '../../import/section.js';
import { AppError } from '../../platform/errors.js';
import type { AdminActor } from '../admin/service.js';
import { auditChanges, importAndAudit } from '../catalog/import-save.js';
import * as repo from './repository.js';
import {
  type Fragment,
  marketRecord,
  newProductRecord,
  offerRecord,
  permissionToChange,
  productRecord,
  ruleRecord,
  STATUS_ACTIONS,
  type StatusAction,
  templateRecord,
  type Values,
} from './rules.js';

type Ctx = Pick<AppContext, 'database' | 'clock' | 'events' | 'config'>;

export type SaveResult =
  | { ok: true; id: number | string }
  /** `prefix`: the record's path in the document the problems refer to; `rows`: list rows */
  | { ok: false; problems: ImportProblem[]; prefix: string; rows: Record<string, number[]> };

async function storedProduct(ctx: Ctx, id: number) {
  const p = await repo.productRow(ctx.database.db, id);
  if (!p) throw new AppError(404, 'product_not_found', 'No such market product.');
  return p;
}

const keyOf = (p: { template: string; market: string; language: string }) => ({
  template: p.template,
  market: p.market,
  language: p.language,
});

// ------------------------------------------------------------------------------------ products

export async function createProduct(ctx: Ctx, actor: AdminActor, v: Values): Promise<SaveResult> {
  assertAllowed(actor.grant, 'edit_catalog');
  const { record, rows } = newProductRecord(v);
  const prefix = '/market_products/0';
  const { template, market, language } = record as { template: string; market: string; language: string };
  // the import would update a stored product of the same key: creating never does
  if (template && market && language && (await repo.productIdByKey(ctx.database.db, template, market, language))) {
    return {
      ok: false,
      prefix,
      rows,
      problems: [{ path: `${prefix}/language`, reason: `a product of ${template} in ${market}/${language} exists` }],
    };
  }
  const id = async () => (await repo.productIdByKey(ctx.database.db, template, market, language))!;
  const result = await importAndAudit(ctx, actor, { market_products: [record] }, async () => ({
    action: 'product.create',
    resourceType: 'market_product',
    resourceId: await id(),
    details: { product: `${template}/${market}/${language}`, status: 'draft' },
  }));
  if (!result.ok) return { ok: false, problems: result.problems, prefix, rows };
  return { ok: true, id: await id() };
}

/** Texts, airports and itinerary of a product: a draft needs edit_catalog, any other status publish_catalog too. */
export async function saveProduct(ctx: Ctx, actor: AdminActor, id: number, v: Values): Promise<SaveResult> {
  assertAllowed(actor.grant, 'edit_catalog');
  const stored = await storedProduct(ctx, id);
  assertAllowed(actor.grant, permissionToChange(stored.status));
  const { record, rows } = productRecord(v);
  return saveProductRecord(ctx, actor, stored, { record, rows }, 'product.update');
}

async function saveProductRecord(
  ctx: Ctx,
  actor: AdminActor,
  stored: repo.ProductRecord,
  { record, rows }: Fragment,
  action: string,
): Promise<SaveResult> {
  const prefix = '/market_products/0';
  const result = await importAndAudit(
    ctx,
    actor,
    { market_products: [{ ...keyOf(stored), ...record }] },
    (changes) => ({
      action,
      resourceType: 'market_product',
      resourceId: stored.id,
      details: { product: `${stored.template}/${stored.market}/${stored.language}`, changes: auditChanges(changes) },
    }),
  );
  if (!result.ok) return { ok: false, problems: result.problems, prefix, rows };
  return { ok: true, id: stored.id };
}

/** Publish, unpublish, archive, restore: publish_catalog, from the statuses each allows. */
export async function setProductStatus(ctx: Ctx, actor: AdminActor, id: number, action: StatusAction) {
  assertAllowed(actor.grant, 'publish_catalog');
  const stored = await storedProduct(ctx, id);
  const rule = STATUS_ACTIONS[action];
  if (!(rule.from as readonly string[]).includes(stored.status)) {
    throw new AppError(409, 'wrong_status', `A product that is ${stored.status} cannot be changed by ${action}.`);
  }
  const result = await saveProductRecord(
    ctx,
    actor,
    stored,
    { record: { status: rule.to }, rows: {} },
    `product.${action}`,
  );
  if (!result.ok) {
    throw new AppError(422, 'import_refused', result.problems.map((p) => `${p.path}: ${p.reason}`).join('; '));
  }
}

/**
 * The tour's shared part (hotels by tier, transfers by day, hero image) changes every market
 * product of the template: publish_catalog as soon as one of them is not a draft.
 */
export async function saveTemplate(ctx: Ctx, actor: AdminActor, code: string, v: Values): Promise<SaveResult> {
  assertAllowed(actor.grant, 'edit_catalog');
  const t = await repo.templateByCode(ctx.database.db, code);
  if (!t) throw new AppError(404, 'template_not_found', 'No such tour template.');
  const parts = await repo.templateParts(ctx.database.db, t.id);
  if (parts.nonDraftProducts > 0) assertAllowed(actor.grant, 'publish_catalog');
  const { record, rows } = templateRecord(v);
  const prefix = '/product_templates/0';
  const result = await importAndAudit(ctx, actor, { product_templates: [{ code, ...record }] }, (changes) => ({
    action: 'template.update',
    resourceType: 'product_template',
    resourceId: code,
    details: { changes: auditChanges(changes) },
  }));
  if (!result.ok) return { ok: false, problems: result.problems, prefix, rows };
  return { ok: true, id: code };
}

// ------------------------------------------------------------------------------------ offers

/** An offer, new (`offerId` undefined) or stored, of a market product. Offers have no draft state: edit_catalog. */
export async function saveOffer(
  ctx: Ctx,
  actor: AdminActor,
  productId: number,
  offerId: number | undefined,
  v: Values,
): Promise<SaveResult> {
  assertAllowed(actor.grant, 'edit_catalog');
  const product = await storedProduct(ctx, productId);
  let code: string;
  if (offerId === undefined) {
    code = (v.code ?? '').trim();
    if (code && (await repo.offerIdByCode(ctx.database.db, code))) {
      return { ok: false, prefix: '', rows: {}, problems: [{ path: '/code', reason: `offer '${code}' exists` }] };
    }
  } else {
    const stored = await repo.offerRow(ctx.database.db, offerId);
    if (!stored || stored.marketProductId !== productId) throw new AppError(404, 'offer_not_found', 'No such offer.');
    code = stored.code;
  }
  const { record, rows } = offerRecord(v, offerId === undefined);
  const prefix = '/market_products/0/offers/0';
  const id = async () => offerId ?? (await repo.offerIdByCode(ctx.database.db, code))!;
  const doc = { market_products: [{ ...keyOf(product), offers: [{ code, ...record }] }] };
  const result = await importAndAudit(ctx, actor, doc, async (changes) => ({
    action: offerId === undefined ? 'offer.create' : 'offer.update',
    resourceType: 'offer',
    resourceId: await id(),
    details: { code, changes: auditChanges(changes) },
  }));
  if (!result.ok) return { ok: false, problems: result.problems, prefix, rows };
  return { ok: true, id: await id() };
}

/** Archived offers are hidden everywhere and kept for the bookings that point at them. */
export async function archiveOffer(ctx: Ctx, actor: AdminActor, offerId: number): Promise<void> {
  assertAllowed(actor.grant, 'edit_catalog');
  const o = await repo.offerRow(ctx.database.db, offerId);
  if (!o) throw new AppError(404, 'offer_not_found', 'No such offer.');
  const doc = { market_products: [{ ...keyOf(o), offers: [{ code: o.code, status: 'Archived' }] }] };
  const result = await importAndAudit(ctx, actor, doc, () => ({
    action: 'offer.archive',
    resourceType: 'offer',
    resourceId: offerId,
    details: { code: o.code },
  }));
  if (!result.ok) throw new AppError(422, 'import_refused', result.problems.map((p) => p.reason).join('; '));
}

// ------------------------------------------------------------------------------------ departure rules

export async function saveRule(
  ctx: Ctx,
  actor: AdminActor,
  productId: number,
  ruleId: number | undefined,
  v: Values,
): Promise<SaveResult> {
  assertAllowed(actor.grant, 'edit_catalog');
  const product = await storedProduct(ctx, productId);
  let code = (v.code ?? '').trim();
  if (ruleId === undefined) {
    if (code && (await repo.ruleIdByCode(ctx.database.db, code))) {
      return { ok: false, prefix: '', rows: {}, problems: [{ path: '/code', reason: `rule '${code}' exists` }] };
    }
  } else {
    const stored = await repo.ruleRow(ctx.database.db, ruleId);
    if (!stored || stored.marketProductId !== productId) throw new AppError(404, 'rule_not_found', 'No such rule.');
    code = stored.code;
  }
  const { record, rows } = ruleRecord({ ...v, code }, keyOf(product));
  const id = async () => ruleId ?? (await repo.ruleIdByCode(ctx.database.db, code))!;
  const result = await importAndAudit(ctx, actor, { offer_rules: [record] }, async () => ({
    action: ruleId === undefined ? 'offer_rule.create' : 'offer_rule.update',
    resourceType: 'offer_rule',
    resourceId: await id(),
    details: { code },
  }));
  if (!result.ok) return { ok: false, problems: result.problems, prefix: '/offer_rules/0', rows };
  return { ok: true, id: await id() };
}

// ------------------------------------------------------------------------------------ markets

/** A market, new (`code` undefined: taken from the form) or stored. Markets have no draft state: edit_catalog. */
export async function saveMarket(
  ctx: Ctx,
  actor: AdminActor,
  code: string | undefined,
  v: Values,
): Promise<SaveResult> {
  assertAllowed(actor.grant, 'edit_catalog');
  const isNew = code === undefined;
  const target = isNew ? (v.code ?? '').trim() : code;
  if (!isNew && !(await repo.marketRow(ctx.database.db, target))) {
    throw new AppError(404, 'market_not_found', 'No such market.');
  }
  const { fragment, problems } = marketRecord(v, isNew);
  if (isNew && target && (await repo.marketRow(ctx.database.db, target))) {
    problems.push({ path: '/code', reason: `market '${target}' exists` });
  }
  if (problems.length) return { ok: false, problems, prefix: '', rows: {} };
  const prefix = '/markets/0';
  const result = await importAndAudit(ctx, actor, { markets: [{ code: target, ...fragment.record }] }, (changes) => ({
    action: isNew ? 'market.create' : 'market.update',
    resourceType: 'market',
    resourceId: target,
    details: { changes: auditChanges(changes) },
  }));
  if (!result.ok) return { ok: false, problems: result.problems, prefix, rows: fragment.rows };
  return { ok: true, id: target };
}
