/** An agreement directory of the worked examples of issue 25 (lane 60601 -> 10001), written for a test. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const WORKED_AGREEMENT = {
  scac: 'TSTC',
  carrierName: 'Test Carrier Lines',
  agreement: 'TST-2026-001',
  effective: '2026-01-01',
  expires: '2027-12-31',
  discount: { percent: '72' },
  absoluteMinimumChargeInCents: 12500,
  deficitRating: true,
  fak: [{ classes: ['50', '55', '60', '65', '70', '85'], ratedAs: '70' }],
  accessorials: { NOTIFY: { amountInCents: 5600, description: 'Notify before delivery' }, LIFTGATE_DELIVERY: { amountInCents: 9500 } },
  liability: { newCentsPerPound: 200, maxPerShipmentInCents: 10000000 },
};

export const WORKED_BASE_RATES = [
  'origin_zip3,dest_zip3,class,MC,L5C,M5C,M1M,M2M,M5M,M10M,M20M,M30M,M40M',
  '606,100,70,9500,8429,7582,7015,6322,4998,4548,4299,4100,4000',
  '600-629,100-119,125,9500,13010,11500,10500,9800,9000,8000,7000,6000,5000',
].join('\n');

/** 32.45 % for a diesel price from $3.700 to $3.749. */
export const FUEL_TABLE = {
  effectiveDaysAfterIndexMonday: 2,
  versions: [
    {
      from: '2026-01-01',
      bands: [
        { atLeastMills: 3650, lessThanMills: 3700, percent: '32.05' },
        { atLeastMills: 3700, lessThanMills: 3750, percent: '32.45' },
      ],
      below: { stepMills: 50, stepPercent: '0.40' },
      above: { stepMills: 50, stepPercent: '0.40' },
    },
  ],
};

export function writeAgreement(root: string, name: string, files: Record<string, unknown>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  return dir;
}
