-- shipper's PostgreSQL store, schema version 1.
--
-- One table per collection: the record itself as jsonb (read back through the same zod schemas as
-- the file store's records), beside the few columns the engine's queries need, indexed. The
-- columns are copies of fields of the record, written in the same statement.

-- Shipments: by id, order number, BOL number, PRO, reference, content key; lists by created time
-- and status, newest first.
CREATE TABLE shipments (
  id            text PRIMARY KEY,
  created_at    timestamptz NOT NULL,
  status        text NOT NULL,
  order_number  text NOT NULL UNIQUE,
  bol_number    text NOT NULL UNIQUE,
  pro_number    text,
  reference     text,
  -- What a booking was made of (an import's re-run books only the rest): one shipment per key.
  content_key   text UNIQUE,
  -- A quote is booked once.
  quote_id      text UNIQUE,
  record        jsonb NOT NULL
);
CREATE INDEX shipments_created ON shipments (created_at DESC, id DESC);
CREATE INDEX shipments_status_created ON shipments (status, created_at DESC, id DESC);
CREATE INDEX shipments_pro ON shipments (pro_number) WHERE pro_number IS NOT NULL;
CREATE INDEX shipments_reference ON shipments (reference) WHERE reference IS NOT NULL;

CREATE TABLE quotes (
  id            text PRIMARY KEY,
  created_at    timestamptz NOT NULL,
  record        jsonb NOT NULL
);
CREATE INDEX quotes_created ON quotes (created_at DESC, id DESC);

-- Counters of the numbers auditors read (order numbers, BOL serials, SSCC serials, PRO blocks,
-- X12 control numbers): the last number issued. A number is taken by UPDATE ... RETURNING inside
-- the transaction that uses it, so a rolled-back booking gives its number back (no gap) and two
-- transactions never get the same one (the row is locked until commit).
CREATE TABLE counters (
  name          text PRIMARY KEY,
  last          bigint NOT NULL CHECK (last >= 0)
);

-- Idempotency records: one per (scope, key), across every server on the database.
CREATE TABLE idempotency_keys (
  scope         text NOT NULL,
  key           text NOT NULL,
  created_at    timestamptz NOT NULL,
  record        jsonb NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- The import ledger: what each import run booked, by run.
CREATE TABLE imports (
  id            text PRIMARY KEY,
  created_at    timestamptz NOT NULL,
  record        jsonb NOT NULL
);

-- Shipment events (tracking), newest last per shipment.
CREATE TABLE shipment_events (
  id            text PRIMARY KEY,
  shipment_id   text NOT NULL,
  created_at    timestamptz NOT NULL,
  record        jsonb NOT NULL
);
CREATE INDEX shipment_events_shipment ON shipment_events (shipment_id, created_at, id);

-- Everything else the engine keeps (audited bills, saved locations, ...): by collection and id.
CREATE TABLE records (
  collection    text NOT NULL,
  id            text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  record        jsonb NOT NULL,
  PRIMARY KEY (collection, id)
);
