/**
 * Bills for a shipment that another bill already covers, PURE: a carrier billing one shipment
 * twice (a second invoice number for the same PRO) is the plainest leak of all. The first bill
 * audited for a shipment stands; any other bill for it is a DUPLICATE, the whole bill at stake.
 * Auditing the same bill again (same carrier and invoice number) replaces its earlier audit and is
 * no duplicate; a bill flagged DUPLICATE never makes another one a duplicate.
 */
import { billName } from './bill.js';
import type { AuditResult } from './audit.js';

export interface EarlierAudit {
  billKey: string;
  shipmentId: string;
  name: string;
  auditedAt: string;
  duplicate: boolean;
}

export function earlierAuditOf(result: AuditResult): EarlierAudit | undefined {
  if (!result.shipment) return undefined;
  return {
    billKey: result.billKey,
    shipmentId: result.shipment.id,
    name: billName(result.bill),
    auditedAt: result.auditedAt,
    duplicate: result.findings.some((finding) => finding.code === 'DUPLICATE'),
  };
}

/** `results` in the order read, with every bill after the first for a shipment flagged DUPLICATE. */
export function flagDuplicates(results: readonly AuditResult[], earlier: readonly EarlierAudit[]): AuditResult[] {
  const covering = new Map<string, { billKey: string; name: string; where: string }>();
  for (const audit of [...earlier].sort((a, b) => a.auditedAt.localeCompare(b.auditedAt))) {
    if (audit.duplicate || covering.has(audit.shipmentId)) continue;
    covering.set(audit.shipmentId, { billKey: audit.billKey, name: audit.name, where: `audited ${audit.auditedAt.slice(0, 10)}` });
  }
  const seen = new Map<string, string>();
  return results.map((result) => {
    const where = `${result.bill.source.file} line ${result.bill.source.line}`;
    const earlierInRun = seen.get(result.billKey);
    seen.set(result.billKey, earlierInRun ?? where);
    if (!result.shipment || result.findings.some((finding) => finding.code === 'UNMATCHED')) return result;
    const first = covering.get(result.shipment.id);
    let reason: string | undefined;
    if (earlierInRun) reason = `${billName(result.bill)} is billed twice (${earlierInRun} and ${where})`;
    else if (!first) covering.set(result.shipment.id, { billKey: result.billKey, name: billName(result.bill), where });
    // The same bill audited again is judged afresh; another bill for a covered shipment is a duplicate.
    else if (first.billKey !== result.billKey) reason = `${result.shipment.orderNumber} is already billed by ${first.name} (${first.where}): a second bill for one shipment`;
    if (!reason) return result;
    const finding = { code: 'DUPLICATE' as const, amountInCents: result.billedInCents, message: reason };
    return { ...result, findings: [finding], disputedInCents: finding.amountInCents, status: 'DISPUTED' as const };
  });
}
