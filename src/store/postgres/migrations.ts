/**
 * The PostgreSQL store's schema, versioned: each migration is a SQL file in ./migrations, embedded
 * in the bundle at build time (esbuild's text loader; vitest.config.ts does the same for the
 * tests), so the package ships them and no file is looked up at run time.
 *
 * Applied by `shipper db migrate` and by `serve` at start-up, in one transaction under an
 * advisory lock: two servers starting together migrate once (the second waits, then finds nothing
 * to do), and a migration that fails leaves the schema as it was. The versions applied are the
 * rows of shipper_migrations; a database at a version this program does not know (a newer
 * shipper migrated it) is refused, never written to.
 */
import type { Sql } from 'postgres';
import initial from './migrations/0001_initial.sql';
import printRuns from './migrations/0002_print_runs.sql';
import credentials from './migrations/0003_credentials.sql';
import publishedWire from './migrations/0004_published_wire.sql';
import companies from './migrations/0005_companies.sql';
import appointmentDocuments from './migrations/0006_appointment_documents.sql';
import { StoreUnavailableError } from '../storeError.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'print_runs', sql: printRuns },
  { version: 3, name: 'credentials', sql: credentials },
  { version: 4, name: 'published_wire', sql: publishedWire },
  { version: 5, name: 'companies', sql: companies },
  { version: 6, name: 'appointment_documents', sql: appointmentDocuments },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** pg_advisory_xact_lock's key: "shipper migrations" as a 64-bit number, the same for every server. */
const MIGRATION_LOCK = 0x5348_4950_4d49_47n;

export interface SchemaStatus {
  /** The version the database is at (0: never migrated). */
  current: number;
  /** The version this program writes. */
  latest: number;
  applied: Array<{ version: number; name: string; appliedAt: string }>;
  pending: Array<{ version: number; name: string }>;
}

/** The database has another schema version than this program: the store is unavailable (503, exit 5). */
export class SchemaMismatch extends StoreUnavailableError {
  constructor(
    message: string,
    readonly status: SchemaStatus,
  ) {
    super(message);
    this.name = 'SchemaMismatch';
  }
}

const CREATE_LEDGER = `CREATE TABLE IF NOT EXISTS shipper_migrations (
  version     integer PRIMARY KEY,
  name        text NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT now()
)`;

export async function schemaStatus(sql: Sql): Promise<SchemaStatus> {
  const [exists] = await sql<Array<{ present: boolean }>>`select to_regclass('shipper_migrations') is not null as present`;
  const rows = exists!.present
    ? await sql<Array<{ version: number; name: string; applied_at: Date }>>`select version, name, applied_at from shipper_migrations order by version`
    : [];
  const applied = rows.map((row) => ({ version: row.version, name: row.name, appliedAt: row.applied_at.toISOString() }));
  const current = applied.at(-1)?.version ?? 0;
  return {
    current,
    latest: SCHEMA_VERSION,
    applied,
    pending: MIGRATIONS.filter((migration) => migration.version > current).map(({ version, name }) => ({ version, name })),
  };
}

export function newerThanProgram(status: SchemaStatus): SchemaMismatch {
  return new SchemaMismatch(
    `the database's schema is version ${status.current}, newer than this shipper's ${status.latest}: a newer shipper migrated it; upgrade shipper to use it`,
    status,
  );
}

/** Refuses a database this program cannot use as it is (behind: `shipper db migrate`; ahead: upgrade). */
export function assertUsable(status: SchemaStatus): void {
  if (status.current > status.latest) throw newerThanProgram(status);
  if (status.current < status.latest) {
    throw new SchemaMismatch(
      status.current === 0
        ? `the database has no shipper schema yet: run shipper db migrate (or start shipper serve, which migrates)`
        : `the database's schema is version ${status.current}, this shipper needs ${status.latest}: run shipper db migrate`,
      status,
    );
  }
}

/** Applies what is pending; returns the versions this call applied (none when another server did). */
export async function migrate(sql: Sql): Promise<{ applied: number[]; status: SchemaStatus }> {
  const applied = await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK.toString()}::bigint)`;
    await tx.unsafe(CREATE_LEDGER);
    const [row] = await tx<Array<{ current: number | null }>>`select max(version) as current from shipper_migrations`;
    const current = row?.current ?? 0;
    if (current > SCHEMA_VERSION) throw newerThanProgram({ current, latest: SCHEMA_VERSION, applied: [], pending: [] });
    const versions: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await tx.unsafe(migration.sql);
      await tx`insert into shipper_migrations (version, name) values (${migration.version}, ${migration.name})`;
      versions.push(migration.version);
    }
    return versions;
  });
  return { applied, status: await schemaStatus(sql) };
}
