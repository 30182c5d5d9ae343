/**
 * What `shipper serve` and RemoteApi agree on beyond the operations table: header names and how
 * warnings travel. Pure: no I/O, cheap to import.
 */

export const API_PREFIX = '/v1/shipper';
export const OPENAPI_PATH = '/api-docs/shipper-v1';

export const JSON_TYPE = 'application/json';
export const PROBLEM_TYPE = 'application/problem+json';
export const PDF_TYPE = 'application/pdf';

/**
 * The base URL is the server's root: every path the API names starts with /v1/shipper. A base URL
 * written with that prefix (`https://api.example.com/v1`, `.../v1/shipper`, copied from the API
 * document) would ask for /v1/v1/shipper/quote: its root is that URL without the prefix.
 */
export function serverRootOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1(?:\/shipper)?$/i, '');
}

/** IETF draft "The Idempotency-Key HTTP Header Field". */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export { IDEMPOTENCY_KEY_PATTERN } from '../domain/limits.js';
/**
 * `Idempotent-Replayed: true` (Stripe's name for it) on a 201 that returned the resource of an
 * earlier request with the same key instead of creating one, so clients can tell a re-import.
 */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/**
 * ApiResult.warnings travel as one `X-Shipper-Warning` header each, `CODE message` (the message
 * %-encoded), on every answer; the answers that are a quote or a shipment also carry them whole in
 * their body's `warnings[]` (WARNINGS_IN_BODY), with the line, numbers and price at stake that a
 * header has no room for. `Deprecation` (RFC 9745) says that the request used a deprecated feature.
 */
export const WARNING_HEADER = 'x-shipper-warning';
export const DEPRECATION_HEADER = 'deprecation';
/** When palletDimensions became deprecated (RFC 9745 wants a date): 2026-01-01T00:00:00Z. */
export const PALLET_DIMENSIONS_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;

/** Header values are ASCII on one line: `%` and anything outside printable ASCII are %-encoded. */
export function encodeHeaderText(text: string): string {
  return text.replace(/[^\x20-\x24\x26-\x7E]/gu, (char) => encodeURIComponent(char));
}

/** The response components whose JSON body carries the call's `warnings[]`. */
export const WARNINGS_IN_BODY: ReadonlySet<string> = new Set(['Quote', 'Shipment']);

/** `DENSITY_MARGIN the class changes...`: the code, a space, the message. */
export function encodeWarningHeader(item: { code: string; message: string }): string {
  return `${item.code} ${encodeHeaderText(item.message)}`;
}

/** A header without a code (a foreign or older server) is a SERVER_WARNING. */
export function decodeWarningHeader(value: string): { code: string; message: string } {
  const match = /^([A-Z][A-Z0-9_]{0,63}) (.*)$/s.exec(value);
  return match ? { code: match[1]!, message: decodeHeaderText(match[2]!) } : { code: 'SERVER_WARNING', message: decodeHeaderText(value) };
}

export function decodeHeaderText(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // A foreign server's header that is not %-encoded: show it as it came.
    return value;
  }
}

/** Loopback addresses: `shipper serve` binds to one of these unless told otherwise. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || bare === '::ffff:127.0.0.1';
}
