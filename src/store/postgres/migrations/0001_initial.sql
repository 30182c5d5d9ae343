-- shipper's PostgreSQL store, schema version 1 (src/store/ports.ts is what it implements).
--
-- One table per collection: the record itself as jsonb, read back through the same zod schemas
-- as the file store's records, beside copies of the few fields the engine's queries need, indexed
-- and written in the same statement as the record.

-- Shipments: by id, order number, BOL number, PRO, reference, quote; lists newest first (by id:
-- ids sort by creation time, a prefix and a ULID), filtered on status, created time and the
-- consignee's ZIP.
CREATE TABLE shipments (
  id                     text PRIMARY KEY,
  created_at             timestamptz NOT NULL,
  status                 text NOT NULL,
  order_number           text NOT NULL UNIQUE,
  bol_number             text NOT NULL UNIQUE,
  -- Normalised (upper case, letters and digits only), as normalisedProNumber() writes it.
  pro_number             text,
  scac                   text,
  -- Normalised (trimmed, one space, upper case), as normalisedReference() writes it.
  reference              text,
  quote_id               text NOT NULL,
  consignee_postal_code  text NOT NULL,
  record                 jsonb NOT NULL,
  -- The quote a booking without --quote priced for itself (found by id, never listed).
  own_quote              jsonb
);
CREATE INDEX shipments_created ON shipments (created_at);
CREATE INDEX shipments_status ON shipments (status, id DESC);
CREATE INDEX shipments_pro ON shipments (pro_number) WHERE pro_number IS NOT NULL;
CREATE INDEX shipments_reference ON shipments (reference, id DESC) WHERE reference IS NOT NULL;
CREATE INDEX shipments_quote ON shipments (quote_id);
CREATE INDEX shipments_own_quote ON shipments ((own_quote ->> 'id')) WHERE own_quote IS NOT NULL;

CREATE TABLE quotes (
  id                       text PRIMARY KEY,
  created_at               timestamptz NOT NULL,
  destination_postal_code  text NOT NULL,
  record                   jsonb NOT NULL
);
CREATE INDEX quotes_created ON quotes (created_at);

-- The numbers auditors read (order serials, SSCC serials, PRO blocks, X12 control numbers): the
-- last one issued. A number is taken by UPDATE ... RETURNING inside the unit of work that uses it:
-- a rolled-back booking gives it back (no gap), and the row stays locked until commit (no two
-- units of work get the same one). The unique constraints on shipments are the backstop.
CREATE TABLE counters (
  name  text PRIMARY KEY,
  last  bigint NOT NULL CHECK (last >= 0)
);

-- Idempotency records, one per (scope, key) across every server on the database. The import
-- ledger reads them: an import's content keys are its bookings' idempotency keys.
CREATE TABLE idempotency_keys (
  scope         text NOT NULL,
  key           text NOT NULL,
  resource_id   text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  record        jsonb NOT NULL,
  PRIMARY KEY (scope, key)
);

-- Shipment events (tracking).
CREATE TABLE shipment_events (
  id              text PRIMARY KEY,
  shipment_id     text NOT NULL,
  occurred_at     timestamptz NOT NULL,
  recorded_at     timestamptz NOT NULL,
  message_digest  text,
  record          jsonb NOT NULL
);
CREATE INDEX shipment_events_shipment ON shipment_events (shipment_id, occurred_at, recorded_at, id);
CREATE INDEX shipment_events_digest ON shipment_events (message_digest) WHERE message_digest IS NOT NULL;

-- Weekly diesel prices of the carrier agreements' fuel surcharges.
CREATE TABLE fuel_prices (
  week            date PRIMARY KEY,
  usd_per_gallon  text NOT NULL
);

-- The user's own records: saved locations (names are case-insensitive) and audited bills.
CREATE TABLE saved_locations (
  name_key  text PRIMARY KEY,
  record    jsonb NOT NULL
);

CREATE TABLE audited_bills (
  bill_key    text PRIMARY KEY,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  record      jsonb NOT NULL
);
