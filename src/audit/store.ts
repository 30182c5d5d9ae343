/**
 * Where audited bills live: the local store's `audited-bills` collection, one record per bill
 * (carrier and invoice number), also in remote mode: bills are the shipper's own papers, like its
 * saved locations, and the spend report reads them beside the shipments. Auditing a bill again
 * replaces its record.
 */
import { createHash } from 'node:crypto';
import { warning, type Warning } from '../domain/warnings.js';
import { z } from 'zod';
import { JsonStore, StoreError } from '../store/jsonStore.js';
import { auditResultSchema, type AuditResult } from './audit.js';

const COLLECTION = 'audited-bills';
const recordId = (billKey: string) => createHash('sha256').update(billKey).digest('hex');

export class AuditedBills {
  constructor(private readonly store: JsonStore) {}

  /** Every audited bill; a damaged record is skipped with a warning naming its file. */
  async list(): Promise<{ audits: AuditResult[]; warnings: Warning[] }> {
    const { ids } = await this.store.listIds(COLLECTION, { limit: Number.MAX_SAFE_INTEGER });
    const warnings: Warning[] = [];
    const audits: AuditResult[] = [];
    for (const id of ids) {
      try {
        const audit = await this.store.get(COLLECTION, id, auditResultSchema);
        if (audit) audits.push(audit);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        warnings.push(warning('RECORD_UNREADABLE', error.message));
      }
    }
    return { audits, warnings };
  }

  async save(results: readonly AuditResult[]): Promise<void> {
    // The last audit of a bill in a run is the one kept.
    const byId = new Map(results.map((result) => [recordId(result.billKey), result]));
    await this.store.putMany(
      COLLECTION,
      [...byId].map(([id, record]) => ({ id, record: z.parse(auditResultSchema, record) })),
    );
  }
}
