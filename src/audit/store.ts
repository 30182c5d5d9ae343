/**
 * Audited bills, one record per bill (carrier and invoice number), kept in the local store, also
 * in remote mode: bills are the shipper's own papers, like its saved locations, and the spend
 * report reads them beside the shipments. Auditing a bill again replaces its record.
 */
import { z } from 'zod';
import type { AuditedBillRepository } from '../store/ports.js';
import { auditResultSchema, type AuditResult } from './audit.js';

export class AuditedBills {
  constructor(private readonly store: AuditedBillRepository) {}

  /** Every audited bill; a damaged record is skipped with a warning naming it. */
  async list(): Promise<{ audits: AuditResult[]; warnings: string[] }> {
    const { records, warnings } = await this.store.list();
    const audits: AuditResult[] = [];
    for (const record of records) {
      const parsed = auditResultSchema.safeParse(record);
      if (parsed.success) audits.push(parsed.data);
      else warnings.push('an audited bill in the store is damaged (it does not hold a valid audit); audit its bill again');
    }
    return { audits, warnings };
  }

  async save(results: readonly AuditResult[]): Promise<void> {
    await this.store.putMany(results.map((result) => ({ billKey: result.billKey, record: z.parse(auditResultSchema, result) })));
  }
}
