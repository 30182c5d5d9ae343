/** Credentials in PostgreSQL (issue 41; migration 0003): the same port as the file store's. */
import type { Sql } from 'postgres';
import { credentialRecordSchema, type CredentialRecord } from '../../domain/credentials.js';
import type { CredentialRepository } from '../ports.js';

export class CredentialRows implements CredentialRepository {
  constructor(private readonly sql: Sql) {}

  async get(id: string): Promise<CredentialRecord | undefined> {
    const [row] = await this.sql<Array<{ record: unknown; revoked_at: Date | null }>>`select record, revoked_at from credentials where id = ${id}`;
    return row && recordOf(row);
  }

  async add(record: CredentialRecord): Promise<void> {
    const checked = credentialRecordSchema.parse(record);
    const row = {
      id: checked.id,
      kind: checked.kind,
      company_id: checked.companyId ?? null,
      created_at: new Date(checked.createdAt),
      revoked_at: checked.revokedAt ? new Date(checked.revokedAt) : null,
      record: this.sql.json(checked as never),
    };
    await this.sql`insert into credentials ${this.sql(row)}`;
  }

  async list(): Promise<CredentialRecord[]> {
    const rows = await this.sql<Array<{ record: unknown; revoked_at: Date | null }>>`select record, revoked_at from credentials order by created_at, id`;
    return rows.map(recordOf);
  }

  async revoke(id: string, at: string): Promise<CredentialRecord | undefined> {
    await this.sql`update credentials set revoked_at = ${new Date(at)} where id = ${id} and revoked_at is null`;
    return this.get(id);
  }

  async signingSecret(candidate: string): Promise<string> {
    await this.sql`insert into auth_signing_key (secret) values (${candidate}) on conflict (singleton) do nothing`;
    const [row] = await this.sql<Array<{ secret: string }>>`select secret from auth_signing_key`;
    return row!.secret;
  }

  async addFailure(bucket: string, at: number, forgetBefore: number): Promise<void> {
    await this.sql`delete from auth_failures where bucket = ${bucket} and at < ${forgetBefore}`;
    await this.sql`insert into auth_failures (bucket, at) values (${bucket}, ${at})`;
  }

  async failures(bucket: string, since: number): Promise<number[]> {
    const rows = await this.sql<Array<{ at: string }>>`select at from auth_failures where bucket = ${bucket} and at >= ${since} order by at`;
    return rows.map((row) => Number(row.at));
  }
}

/** The stored record, its revocation from the column (the one an UPDATE sets). */
function recordOf(row: { record: unknown; revoked_at: Date | null }): CredentialRecord {
  const record = credentialRecordSchema.parse(row.record);
  return { ...record, revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null };
}
