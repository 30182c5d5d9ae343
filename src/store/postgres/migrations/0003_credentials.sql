-- Credentials of shipper serve (issue 41): clients and API keys (hashes only, never a secret),
-- the token signing secret (one row), and the token endpoint's failed requests for its throttle,
-- shared by every server on the database.
CREATE TABLE credentials (
  id          text PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('client', 'key')),
  company_id  text,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  record      jsonb NOT NULL
);
CREATE INDEX credentials_company ON credentials (company_id) WHERE company_id IS NOT NULL;

CREATE TABLE auth_signing_key (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_failures (
  bucket      text NOT NULL,
  at          bigint NOT NULL
);
CREATE INDEX auth_failures_bucket ON auth_failures (bucket, at);
