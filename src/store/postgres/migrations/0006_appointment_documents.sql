-- The documents a shipper uploads for a stop of an order (issue 40): one per shipment, stop and
-- type, a new upload replacing it; the PDF itself in `content` (at most 10 MB, as published).
CREATE TABLE appointment_documents (
  shipment_id    text NOT NULL,
  stop           text NOT NULL,
  document_type  text NOT NULL,
  document       jsonb NOT NULL,
  content        bytea NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shipment_id, stop, document_type)
);
