-- Print runs (shipper bol/labels/import --print): which documents of a request went to the
-- printer, saved after every document, so that --resume sends the rest and nothing twice.
CREATE TABLE print_runs (
  id          text PRIMARY KEY,
  scope       text NOT NULL,
  open        boolean NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  record      jsonb NOT NULL
);
CREATE INDEX print_runs_open ON print_runs (scope, id) WHERE open;
