/**
 * The published Address as the wire holds a client to it (issue 40): on `POST /v1/shipper/quote`
 * and `POST /v1/shipper/shipment` each stop must carry the fields the published schema requires
 * (`components.schemas.Address.required` of the Oway Shipper API). shipper's own engine takes
 * less (a quote from ZIP codes alone, a draft shipment without a phone): that stays possible
 * locally and over HTTP through extensions, never on the published operations, since a sandbox
 * that accepts more lets an integration pass offline and fail in production.
 *
 * Pure and free of zod: what the fields hold is the schemas' to judge; this says which are there.
 */
import type { FieldViolation } from './publishedLimits.js';

/** The fields the published Address requires, in the published schema's order of properties. */
export const PUBLISHED_ADDRESS_FIELDS = ['name', 'address1', 'city', 'state', 'zipCode', 'contactPerson', 'phoneNumber'] as const;
export type PublishedAddressField = (typeof PUBLISHED_ADDRESS_FIELDS)[number];

/** The two stops of a quote or a shipment request. */
export const PUBLISHED_STOPS = ['pickupAddress', 'deliveryAddress'] as const;

const blank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The required fields an address lacks (absent, null or blank); an address that is no object lacks them all. */
export function missingAddressFields(address: unknown): PublishedAddressField[] {
  if (address === null || typeof address !== 'object' || Array.isArray(address)) return [...PUBLISHED_ADDRESS_FIELDS];
  const fields = address as Record<string, unknown>;
  return PUBLISHED_ADDRESS_FIELDS.filter((field) => blank(fields[field]));
}

/** True when both stops of a request are published Addresses (a quote the published operation takes). */
export function hasPublishedStops(request: unknown): boolean {
  const body = (request ?? {}) as Record<string, unknown>;
  return PUBLISHED_STOPS.every((stop) => missingAddressFields(body[stop]).length === 0);
}

/**
 * Every required field the stops of a request body lack, each named by its path
 * (`pickupAddress.contactPerson`). A stop that is absent or no object is left to the body's
 * schema, which names it; so is a field that is there but malformed.
 */
export function publishedAddressViolations(body: unknown, stops: readonly string[] = PUBLISHED_STOPS): FieldViolation[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const violations: FieldViolation[] = [];
  for (const stop of stops) {
    const address = (body as Record<string, unknown>)[stop];
    if (address === null || typeof address !== 'object' || Array.isArray(address)) continue;
    for (const field of missingAddressFields(address)) {
      violations.push({ field: `${stop}.${field}`, reason: `${field} is required` });
    }
  }
  return violations;
}
