/**
 * Which operation prices a quote request: the published `POST /v1/shipper/quote` when both stops
 * are published Addresses, the lane quote (`POST /v1/shipper/lane-quote`, an extension) when a
 * stop is less, such as a ZIP code alone. Oway's service has no lane quote: a client of it is told
 * what each stop lacks before anything is sent.
 */
import { hasPublishedStops, missingAddressFields, PUBLISHED_STOPS } from '../domain/publishedAddress.js';
import { UsageError } from './problems.js';
import type { ShipperApi } from './types.js';

type QuoteArgs = Parameters<ShipperApi['createQuote']>;

export function requestQuote(api: ShipperApi, ...[request, options]: QuoteArgs): ReturnType<ShipperApi['createQuote']> {
  if (hasPublishedStops(request)) return api.createQuote(request, options);
  if (api.publishedOnly) {
    const lacking = PUBLISHED_STOPS.map((stop) => [stop, missingAddressFields((request as Record<string, unknown>)[stop])] as const).filter(([, fields]) => fields.length > 0);
    return Promise.reject(
      new UsageError(
        `the Oway service quotes between full addresses: ${lacking.map(([stop, fields]) => `${stop} lacks ${fields.join(', ')}`).join('; ')}; nothing was sent`,
        'give both stops a name, address1, city, state, zipCode, contactPerson and phoneNumber (a saved location, or the address)',
      ),
    );
  }
  return api.createLaneQuote(request, options);
}
