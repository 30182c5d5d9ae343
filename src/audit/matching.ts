/**
 * Which shipment a bill is for, PURE: by the BOL number first (ours, 17 digits with a check digit:
 * a mistyped one matches nothing), then by the carrier's PRO (case, spaces and dashes ignored).
 * When several shipments carry the key (a carrier may reuse PROs), the booked one wins over a
 * cancelled one, and the newest over older ones.
 */
import type { Shipment } from '../domain/schemas.js';
import type { BillMatch } from './audit.js';
import type { CarrierBill } from './bill.js';

export function normalisedPro(proNumber: string): string {
  return proNumber.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * The PRO and BOL numbers to look shipments up by, for a run of bills. Only keys a shipment can
 * carry are asked for (a PRO of at most 20 letters and digits, a BOL of 17 digits): an X12 210
 * may reference anything in N9, and what no shipment can have simply matches nothing (UNMATCHED)
 * instead of failing the list request.
 */
export function billKeys(bills: readonly CarrierBill[]): { pros: string[]; bols: string[] } {
  const pros = new Set<string>();
  const bols = new Set<string>();
  for (const bill of bills) {
    if (bill.proNumber && /^[A-Z0-9]{1,20}$/.test(normalisedPro(bill.proNumber))) pros.add(normalisedPro(bill.proNumber));
    if (bill.bolNumber && /^\d{17}$/.test(bill.bolNumber)) bols.add(bill.bolNumber);
  }
  return { pros: [...pros], bols: [...bols] };
}

function best(candidates: readonly Shipment[]): Shipment | undefined {
  return [...candidates].sort((a, b) => (a.orderStatus === b.orderStatus ? b.id.localeCompare(a.id) : a.orderStatus !== 'CANCELLED' ? -1 : 1))[0];
}

export class ShipmentsByKey {
  private readonly byPro = new Map<string, Shipment[]>();
  private readonly byBol = new Map<string, Shipment[]>();

  constructor(shipments: Iterable<Shipment>) {
    for (const shipment of shipments) {
      if (shipment.proNumber) this.byPro.set(normalisedPro(shipment.proNumber), [...(this.byPro.get(normalisedPro(shipment.proNumber)) ?? []), shipment]);
      this.byBol.set(shipment.bolNumber, [...(this.byBol.get(shipment.bolNumber) ?? []), shipment]);
    }
  }

  match(bill: CarrierBill): BillMatch {
    const byBol = bill.bolNumber ? best(this.byBol.get(bill.bolNumber) ?? []) : undefined;
    if (byBol) return { shipment: byBol, by: 'BOL' };
    const byPro = bill.proNumber ? best(this.byPro.get(normalisedPro(bill.proNumber)) ?? []) : undefined;
    if (byPro) return { shipment: byPro, by: 'PRO' };
    const keys = [bill.proNumber ? `PRO ${bill.proNumber}` : null, bill.bolNumber ? `BOL ${bill.bolNumber}` : null].filter(Boolean).join(' or ');
    return { shipment: null, reason: `no shipment has ${keys}` };
  }
}
