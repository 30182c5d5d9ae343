/** The quote operations: quote, rate shopping, quotes by id and as a list, the accessorials, transit tables. */
import { z } from 'zod';
import { laneQuoteRequestSchema, quoteRequestSchema, quoteSchema, pageSchema, transitRequestSchema, transitTableSchema } from '../../domain/schemas.js';
import { accessorialListSchema } from '../../domain/accessorials.js';
import { ratesRequestSchema, ratesSchema } from '../../domain/rates.js';
import { QUOTE_STATUSES } from '../../domain/statuses.js';
import { PUBLISHED_STOPS } from '../../domain/publishedAddress.js';
import { onFirstUse } from '../../domain/schemaOnFirstUse.js';
import { API_PREFIX } from '../wire.js';
import { createdFilters, orderedPeriod, pageQuery } from './queries.js';
import { once, operation, WRITE_ERRORS, type OperationSpec } from './spec.js';

const quoteListQuery = once(() =>
  z
    .strictObject({
      ...pageQuery(),
      ...createdFilters(),
      status: z.enum(QUOTE_STATUSES, { error: 'status is OPEN, EXPIRED or BOOKED' }).optional().meta({ description: 'OPEN, EXPIRED or BOOKED' }),
    })
    .superRefine(orderedPeriod),
);

const quotePage = onFirstUse(() => pageSchema(quoteSchema));

export const quoteOperations = {
  createQuote: operation({
    method: 'POST',
    path: `${API_PREFIX}/quote`,
    params: [],
    body: { id: 'QuoteRequest', schema: quoteRequestSchema, publishedAddresses: PUBLISHED_STOPS },
    idempotent: true,
    response: { status: 200, description: 'The quote', id: 'Quote', schema: quoteSchema },
    location: 'getQuote',
    errors: WRITE_ERRORS,
    summary: 'Quote a shipment between two full addresses: price, expiry, transit days and ETA, freight class from density',
    description:
      'Both stops are the published Address (name, address1, city, state, zipCode, contactPerson, phoneNumber required). A quote from ZIP codes alone is the extension POST /v1/shipper/lane-quote.',
    tags: ['Quotes'],
    extension: false,
    operationId: 'requestQuote',
  }),
  createLaneQuote: operation({
    method: 'POST',
    path: `${API_PREFIX}/lane-quote`,
    params: [],
    body: { id: 'LaneQuoteRequest', schema: laneQuoteRequestSchema },
    idempotent: true,
    response: { status: 200, description: 'The quote', id: 'Quote', schema: quoteSchema },
    location: 'getQuote',
    errors: WRITE_ERRORS,
    summary: 'Quote a lane: the request of POST /v1/shipper/quote with stops that may be a ZIP code alone',
    description:
      'What shipper prices needs only the ZIP codes of the stops (and the service flags as accessorials); the published quote wants full addresses. The quote is an ordinary quote: GET /v1/shipper/quote/{quoteId} reads it and POST /v1/shipper/shipment books it with full addresses.',
    tags: ['Quotes'],
    extension: true,
  }),
  shopRates: operation({
    method: 'POST',
    path: `${API_PREFIX}/rates`,
    params: [],
    body: { id: 'RatesRequest', schema: ratesRequestSchema },
    response: { status: 200, description: 'One stored quote per carrier that prices the shipment, cheapest first, and the carriers that do not', id: 'Rates', schema: ratesSchema },
    errors: [400, 401, 413, 415, 422, 500],
    summary: 'Rate shopping: the quote request priced by every carrier agreement (or those named), cheapest first',
    description:
      'Each item is an ordinary quote (booked with POST /v1/shipper/shipment {quoteId}) carrying `carrier` and `pricedBy` (the agreement and how it rated the freight). A carrier that gives no price is a line of `uncovered`, not an error. 422 when the service has no carrier agreements.',
    tags: ['Quotes'],
    extension: true,
  }),
  listQuotes: operation({
    method: 'GET',
    path: `${API_PREFIX}/quote`,
    params: [],
    get query() {
      return quoteListQuery();
    },
    response: { status: 200, description: 'A page of quotes', id: 'QuotePage', schema: quotePage },
    errors: [400, 401, 500],
    summary: 'Quotes, newest first',
    tags: ['Quotes'],
    extension: true,
  }),
  getQuote: operation({
    method: 'GET',
    path: `${API_PREFIX}/quote/{quoteId}`,
    params: ['quoteId'],
    response: { status: 200, description: 'The quote', id: 'Quote', schema: quoteSchema },
    errors: [400, 401, 404, 500],
    summary: 'A quote, including transitDays and estimatedDeliveryDate',
    tags: ['Quotes'],
    extension: false,
  }),
  listAccessorials: operation({
    method: 'GET',
    path: `${API_PREFIX}/accessorials`,
    params: [],
    response: {
      status: 200,
      description: "The tariff's accessorials and those of the carrier agreements loaded, with their charges; and those carriers",
      id: 'AccessorialList',
      schema: accessorialListSchema,
    },
    errors: [401, 500],
    summary: "The accessorial codes the service prices, the tariff's and the carrier agreements', each with its charges; and the carriers whose agreements are loaded",
    description:
      'What a quote request can ask for in `accessorials`: a code with a tariff charge prices without carrierScac; one that only carriers price, with carrierScac (or POST /v1/shipper/rates) naming one of them.',
    tags: ['Quotes'],
    extension: true,
  }),
  transitTimes: operation({
    method: 'POST',
    path: `${API_PREFIX}/transit`,
    params: [],
    body: { id: 'TransitRequest', schema: transitRequestSchema },
    response: { status: 200, description: 'One lane per destination, one row per pickup day', id: 'TransitTable', schema: transitTableSchema },
    errors: [400, 401, 413, 415, 500],
    summary: 'Transit days and ETAs from one origin to many destinations over several pickup days; quotes and stores nothing',
    tags: ['Quotes'],
    extension: true,
  }),
} as const satisfies Record<string, OperationSpec>;
