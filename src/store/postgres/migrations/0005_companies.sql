-- Schema version 5: companies (issue 41 item 2). Every shipment and quote belongs to the company of
-- the key that made it; the rows that exist belong to the default company. The lists of a company
-- filter on company_id first (newest first within it). Point lookups (by id, order number) keep
-- their unique indexes: the engine's company view (src/api/local/companyStore.ts) refuses a row of
-- another company after reading it.
ALTER TABLE shipments ADD COLUMN company_id text NOT NULL DEFAULT 'default';
ALTER TABLE quotes ADD COLUMN company_id text NOT NULL DEFAULT 'default';
CREATE INDEX shipments_company ON shipments (company_id, id DESC);
CREATE INDEX quotes_company ON quotes (company_id, id DESC);
