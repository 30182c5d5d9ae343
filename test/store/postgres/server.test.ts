import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { testDatabase } from '../../helpers/postgres.js';

describe('the test run PostgreSQL server', () => {
  let sql: postgres.Sql;
  beforeAll(async () => {
    sql = postgres(await testDatabase(), { max: 1 });
  });
  afterAll(() => sql?.end());

  it('is a real PostgreSQL 18 with a database of this file', async () => {
    const [row] = await sql`select current_setting('server_version_num')::int as version, current_database() as db`;
    expect(row!.version).toBeGreaterThanOrEqual(180000);
    expect(row!.db).toMatch(/^shipper_[0-9a-f]{12}$/);
  });
});
