// Pure rules of the ops module: the deployment webhook's token and field rules, and how health
// measurements become ok | warning | failed.
import { createHash, timingSafeEqual } from 'node:crypto';
import { FieldErrorBag } from '../../platform/errors.js';

/**
 * True when the Authorization header carries `Bearer <expected>`. Both sides are hashed first so
 * the comparison is constant-time and of equal length whatever the caller sent.
 */
export function bearerMatches(authorization: string | undefined, expected: string): boolean {
  if (!expected) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const given = m?.[1] ?? '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}

// YYYY-MM-DD, optionally followed by T (or a space) and hh:mm[:ss[.fraction]] and a zone.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 calendar date or date-time that exists (no 2026-02-30, no 25:00). */
export function isIsoDate(value: string): boolean {
  const m = ISO_8601.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false;
  if (m[7] && m[7] !== 'Z') {
    const zone = m[7].replace(':', '');
    if (Number(zone.slice(1, 3)) > 14 || Number(zone.slice(3, 5)) > 59) return false;
  }
  return true;
}

export interface DeploymentBody {
  environment: string;
  version: string;
  commit: string;
  build_date: string;
  build_id?: string | null;
}

export interface DeploymentInput {
  environment: string;
  version: string;
  commit: string;
  buildDate: string;
  buildId: string | null;
}

/**
 * The field rules the schema cannot say: values are trimmed, required ones must not be blank,
 * build_date must be ISO 8601; a blank build_id means none. Lengths are checked by the schema.
 */
export function deploymentInput(body: DeploymentBody): DeploymentInput {
  const bag = new FieldErrorBag();
  const required = (field: 'environment' | 'version' | 'commit' | 'build_date'): string => {
    const v = body[field].trim();
    if (v === '') bag.add(field, `The ${field} field is required.`);
    return v;
  };
  const input: DeploymentInput = {
    environment: required('environment'),
    version: required('version'),
    commit: required('commit'),
    buildDate: required('build_date'),
    buildId: body.build_id?.trim() || null,
  };
  if (input.buildDate !== '' && !isIsoDate(input.buildDate)) {
    bag.add('build_date', 'The build_date field must be a valid ISO 8601 date.');
  }
  bag.throwIfAny(422);
  return input;
}

export type HealthStatus = 'ok' | 'warning' | 'failed';

export interface CheckResult {
  name: string;
  status: HealthStatus;
  message?: string;
  meta?: Record<string, unknown>;
}

export interface HealthReport {
  batch: string;
  finishedAt: Date;
  checkResults: CheckResult[];
}

export const DISK_WARNING_PERCENT = 70;
export const DISK_FAILED_PERCENT = 90;

/** warning above 70 % used, failed above 90 % */
export function diskStatus(usedPercent: number): HealthStatus {
  if (usedPercent > DISK_FAILED_PERCENT) return 'failed';
  if (usedPercent > DISK_WARNING_PERCENT) return 'warning';
  return 'ok';
}

/** Used share of a file system as `df` counts it: blocks reserved for root are not available. */
export function usedPercent(fs: { blocks: number; bfree: number; bavail: number }): number {
  const used = fs.blocks - fs.bfree;
  const usable = used + fs.bavail;
  if (usable <= 0) return 0;
  return Math.round((used / usable) * 1000) / 10;
}

/** 200 unless a check failed; warnings do not take a node out of a load balancer */
export function healthHttpStatus(statuses: HealthStatus[]): 200 | 503 {
  return statuses.includes('failed') ? 503 : 200;
}

/**
 * The boot's warning when production or staging has no alert channel: without SMTP_URL and
 * HEALTH_NOTIFY_EMAIL the scheduled health checks' failures only reach the log.
 */
export function alertChannelWarning(config: {
  appEnv: string;
  health: { smtpUrl?: string; notifyEmail: string };
}): string | undefined {
  if (config.appEnv !== 'production' && config.appEnv !== 'staging') return undefined;
  const missing = [
    config.health.smtpUrl ? undefined : 'SMTP_URL',
    config.health.notifyEmail ? undefined : 'HEALTH_NOTIFY_EMAIL',
  ].filter(Boolean);
  if (missing.length === 0) return undefined;
  return `no health alert channel: set ${missing.join(' and ')}, or failed health checks only reach the log`;
}
