// The caller's address as the consent audit stores it (consent_ip, varchar(45)).
import { isIP } from 'node:net';

/**
 * `request.ip` when it is an IPv4 or IPv6 address that fits the column, else null. Fastify takes
 * it from X-Forwarded-For when the peer is a trusted proxy, as sent: a forwarded value that is no
 * address (or longer than 45 characters) made the newsletter's insert fail with a 500.
 */
export function storableIp(ip: string | null | undefined): string | null {
  return ip && ip.length <= 45 && isIP(ip) !== 0 ? ip : null;
}
