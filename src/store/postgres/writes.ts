/**
 * The PostgreSQL store's writes, each a multi-row statement (a booking writes one row, an import
 * a thousand): a record goes in with the key columns copied from it, and replaces the record of
 * the same id. Rows of one statement are made unique by key first (ON CONFLICT cannot touch one
 * row twice in a statement); the last one of a key wins, as if written one after another.
 */
import type { Sql, TransactionSql } from 'postgres';
import { companyOf } from '../../domain/companies.js';
import { normalisedProNumber, normalisedReference } from '../../domain/recordKeys.js';
import type { Quote, Shipment } from '../../domain/schemas.js';
import type { IdempotencyRecord, ShipmentEventRecord, WeeklyFuelPrice } from '../ports.js';

type Queryable = Sql | TransactionSql;

/** pg_advisory_xact_lock's key of the unit of work (and of an import), the same for every server. */
export const UNIT_OF_WORK_LOCK = '6001379958372757250';

export const fiveDigits = (zipCode: string) => zipCode.trim().slice(0, 5);

function lastOfEachKey<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...new Map(rows.map((row) => [key(row), row])).values()];
}

export function putShipments(sql: Queryable, items: ReadonlyArray<{ shipment: Shipment; ownQuote: Quote | undefined }>) {
  const rows = lastOfEachKey(items, (item) => item.shipment.id).map(({ shipment, ownQuote }) => ({
    id: shipment.id,
    created_at: new Date(shipment.createdAt),
    order_status: shipment.orderStatus,
    order_number: shipment.orderNumber,
    bol_number: shipment.bolNumber,
    pro_number: shipment.proNumber ? normalisedProNumber(shipment.proNumber) : null,
    scac: shipment.carrier?.scac ?? null,
    reference: shipment.refNumber ? normalisedReference(shipment.refNumber) : null,
    quote_id: shipment.quoteId,
    delivery_zip_code: fiveDigits(shipment.deliveryAddress.zipCode),
    company_id: companyOf(shipment),
    record: sql.json(shipment as never),
    own_quote: ownQuote ? sql.json(ownQuote as never) : null,
  }));
  return sql`
    insert into shipments ${sql(rows)}
    on conflict (id) do update set
      order_status = excluded.order_status, order_number = excluded.order_number, bol_number = excluded.bol_number,
      pro_number = excluded.pro_number, scac = excluded.scac, reference = excluded.reference, quote_id = excluded.quote_id,
      delivery_zip_code = excluded.delivery_zip_code, company_id = excluded.company_id, record = excluded.record,
      own_quote = coalesce(excluded.own_quote, shipments.own_quote)`;
}

export function putQuotes(sql: Queryable, quotes: readonly Quote[]) {
  const rows = lastOfEachKey(quotes, (quote) => quote.id).map((quote) => ({
    id: quote.id,
    created_at: new Date(quote.createdAt),
    delivery_zip_code: fiveDigits(quote.deliveryAddress.zipCode),
    company_id: companyOf(quote),
    record: sql.json(quote as never),
  }));
  return sql`insert into quotes ${sql(rows)} on conflict (id) do update set record = excluded.record, delivery_zip_code = excluded.delivery_zip_code, company_id = excluded.company_id`;
}

export function putIdempotencies(sql: Queryable, items: ReadonlyArray<{ key: string; record: IdempotencyRecord }>) {
  const rows = lastOfEachKey(items, (item) => `${item.record.scope} ${item.key}`).map(({ key, record }) => ({
    scope: record.scope,
    key,
    resource_id: record.resourceId,
    record: sql.json(record as never),
  }));
  return sql`insert into idempotency_keys ${sql(rows)} on conflict (scope, key) do update set resource_id = excluded.resource_id, record = excluded.record`;
}

export function appendEvents(sql: Queryable, events: readonly ShipmentEventRecord[]) {
  const rows = lastOfEachKey(events, (event) => event.id).map((event) => ({
    id: event.id,
    shipment_id: event.shipmentId,
    occurred_at: new Date(event.occurredAt),
    recorded_at: new Date(event.recordedAt),
    message_digest: event.messageDigest,
    record: sql.json(event as never),
  }));
  return sql`insert into shipment_events ${sql(rows)} on conflict (id) do nothing`;
}

export function putFuelPrices(sql: Queryable, prices: readonly WeeklyFuelPrice[]) {
  const rows = lastOfEachKey(prices, (price) => price.week).map((price) => ({ week: price.week, usd_per_gallon: price.usdPerGallon }));
  return sql`insert into fuel_prices ${sql(rows)} on conflict (week) do update set usd_per_gallon = excluded.usd_per_gallon`;
}
