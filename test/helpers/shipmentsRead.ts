/**
 * What the store, crash and concurrency tests share: every shipment read back through the CLI as
 * a user reads it, the numbers that must never repeat, and one small booking to make after a
 * fault to see that booking goes on.
 */
import { DELIVERY_CONTACT, withContact } from './fixtures.js';
import { expect } from 'vitest';
import type { Page, Shipment } from '../../src/domain/schemas.js';
import type { CliResult } from './cli.js';

/** Every shipment of the store, page after page: exit 0 and no warning (no damaged record). */
export async function allShipmentsThrough(shipper: (args: string[]) => Promise<CliResult>): Promise<Shipment[]> {
  const items: Shipment[] = [];
  let cursor: string | null = null;
  do {
    const result = await shipper(['shipment', 'list', '--json', '--limit', '500', ...(cursor ? ['--cursor', cursor] : [])]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const page = JSON.parse(result.stdout) as Page<Shipment>;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** `shipper ship` of one pallet from Chicago to New York, answered as JSON. */
export const BOOK_ONE_PALLET: readonly string[] = [
  'ship',
  '--shipper',
  withContact('name=A,address1=1 Main St,city=Chicago,state=IL,zip=60601'),
  '--consignee',
  withContact('name=B,address1=1 Penn Plaza,city=New York,state=NY,zip=10001', DELIVERY_CONTACT),
  '-c',
  'pallets=1,weight=500,dims=48x40x48,desc=Parts',
  '--json',
];
