// Rate shopping (issue 25): one quote priced by 10 carrier agreements of 50,000 base-rate rows each,
// against a single local quote, both in one process with the agreements loaded once (as `serve`
// and every CLI process do). Median of N of each after a warm-up. Target: within 3x a single quote.
// Also reported: the one-time load of the 10 agreements (500,000 rows).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalApi } from '../src/api/local.js';
import { figure, median, row } from './lib.js';

const runs = Number(process.argv[2] ?? 31);
const AGREEMENTS = 10;
const ROWS = 50_000;
const CLASSES = ['50', '55', '60', '65', '70', '85', '92.5', '100', '125', '175', '250', '300', '400'];
const work = mkdtempSync(join(tmpdir(), 'shipper-bench-rates-'));

/** 100 origin ZIP3s x 40 destination ranges of 25 x 13 classes, cut at ROWS rows; rates vary by carrier. */
function baseRates(carrier: number): string {
  const lines = ['origin_zip3,dest_zip3,class,MC,L5C,M5C,M1M,M2M,M5M,M10M,M20M,M30M,M40M'];
  for (let origin = 600; origin < 700 && lines.length <= ROWS; origin++) {
    for (let range = 0; range < 40 && lines.length <= ROWS; range++) {
      const dest = `${String(range * 25).padStart(3, '0')}-${String(range * 25 + 24).padStart(3, '0')}`;
      CLASSES.forEach((name, c) => {
        if (lines.length > ROWS) return;
        const base = 6000 + carrier * 97 + c * 450 + range * 13;
        const rates = [1, 0.86, 0.76, 0.66, 0.52, 0.46, 0.43, 0.41, 0.39].map((factor) => Math.round(base * factor));
        lines.push(`${origin},${dest},${name},${9000 + carrier * 50},${rates.join(',')}`);
      });
    }
  }
  return `${lines.join('\n')}\n`;
}

try {
  const dir = join(work, 'agreements');
  for (let i = 0; i < AGREEMENTS; i++) {
    const scac = `BR${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;
    mkdirSync(join(dir, scac), { recursive: true });
    writeFileSync(
      join(dir, scac, 'agreement.json'),
      JSON.stringify({
        scac,
        carrierName: `Bench Carrier ${i + 1}`,
        agreement: `B-${i}`,
        effective: '2026-01-01',
        expires: '2027-12-31',
        discount: { percent: String(65 + i) },
        absoluteMinimumChargeInCents: 12000,
        deficitRating: true,
      }),
    );
    writeFileSync(join(dir, scac, 'base-rates.csv'), baseRates(i));
  }
  // Records kept in memory after a read, as `shipper serve` keeps them (the fuel prices are read per request).
  const api = new LocalApi({ storeDir: join(work, 'store'), agreementsDir: dir, cacheEntries: 1000, now: () => new Date('2026-11-24T15:00:00Z') });
  const request = {
    pickupAddress: { zipCode: '60601' },
    deliveryAddress: { zipCode: '10001' },
    requiredPickupDate: '2026-12-02',
    orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
  };
  const loadStart = process.hrtime.bigint();
  const loaded = await api.agreements.load();
  const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;
  await api.loadTariff();
  const time = async (fn: () => Promise<unknown>) => {
    const start = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  for (let i = 0; i < 3; i++) {
    await api.createQuote(request);
    await api.shopRates(request);
  }
  const single: number[] = [];
  const shopping: number[] = [];
  let carriers = 0;
  for (let i = 0; i < runs; i++) {
    single.push(await time(() => api.createQuote(request)));
    shopping.push(
      await time(async () => {
        carriers = (await api.shopRates(request)).data.items.length;
      }),
    );
  }
  const one = median(single);
  const all = median(shopping);
  console.log(`rate shopping, ${AGREEMENTS} agreements x ${ROWS.toLocaleString('en-US')} rows, median of ${runs} (ms)`);
  row(`load ${loaded.length} agreements (once per process)`, `${loadMs.toFixed(0)} ms`);
  row('single local quote (baseline)', `${one.toFixed(2)} ms`);
  row(`rate shopping (${carriers} quotes, stored)`, `${all.toFixed(2)} ms  (${(all / one).toFixed(2)}x baseline)`);
  figure({ bench: 'rates', name: `load ${AGREEMENTS} agreements of ${ROWS} rows`, value: loadMs, unit: 'ms' });
  figure({
    bench: 'rates',
    name: `rate shopping across ${AGREEMENTS} agreements`,
    value: all,
    unit: 'ms',
    baseline: { name: 'single local quote', value: one },
    target: { op: '<=', value: 3, of: 'ratio' },
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
