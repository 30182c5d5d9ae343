/**
 * The freight check by the carrier's agreement (issues 21 and 25): a quote a carrier agreement
 * priced is checked against that agreement's inspection rules, and the price at stake is that
 * carrier's price at the risk (checked against a quote of the freight as the inspector would
 * measure it); the tariff's quotes keep the defaults.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templatesDir } from '../../src/paths.js';
import { quoteSchema } from '../../src/domain/schemas.js';
import { runInProcess } from '../helpers/inProcess.js';

let dir: string;
let env: Record<string, string>;
const LANE = ['--from', '60601', '--to', '10001', '--pickup-date', '2026-12-02'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shipper-agreement-check-'));
  const agreements = join(dir, 'agreements');
  await cp(join(templatesDir(), 'agreements', 'saml'), join(agreements, 'saml'), { recursive: true });
  const file = join(agreements, 'saml', 'agreement.json');
  const agreement = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  // This carrier counts a unit 40 in wide or wider as 96 in wide (the default is 70 in).
  await writeFile(file, JSON.stringify({ ...agreement, inspection: { wideFreight: { fromInches: 40, ratedWidthInches: 96 } } }));
  env = { SHIPPER_STORE: join(dir, 'store'), SHIPPER_NOW: '2026-11-30T15:00:00Z', SHIPPER_TARIFFS: agreements };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const quoteOf = async (args: string[]) => {
  const result = await runInProcess(['--json', 'quote', ...LANE, ...args], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown;
};

describe('the freight check of a carrier-rated quote', () => {
  it("uses the agreement's thresholds and prices the risk at that carrier's rates", async () => {
    const [quote] = quoteSchema.array().parse(await quoteOf(['-c', 'pallets=1,weight=500,dims=48x40x48,desc=Pump parts', '--carrier', 'SAML']));
    const wide = quote!.warnings?.find((warning) => warning.code === 'WIDE_FREIGHT');
    expect(wide, JSON.stringify(quote!.warnings)).toBeDefined();
    expect(wide!.priceAtStake!.quotedPriceInCents).toBe(quote!.quotedPriceInCents);
    // The inspector's measure: the same freight as wide as the rule counts it, quoted by the same
    // carrier (95 in: the class of 96 in, 250, without the overlength charge 96 in would add).
    const [measured] = quoteSchema.array().parse(await quoteOf(['-c', 'pallets=1,weight=500,dims=48x95x48,desc=Pump parts', '--carrier', 'SAML']));
    expect(measured!.orderComponents[0]!.freightClass).toBe('250');
    expect(wide!.priceAtStake!.atRiskPriceInCents).toBe(measured!.quotedPriceInCents);
    expect(measured!.quotedPriceInCents).toBeGreaterThan(quote!.quotedPriceInCents);
  });

  it("keeps the default thresholds for the tariff, and for a unit just under the agreement's width", async () => {
    const byTariff = quoteSchema.parse(await quoteOf(['-c', 'pallets=1,weight=500,dims=48x40x48,desc=Pump parts']));
    expect(byTariff.warnings?.map((warning) => warning.code)).not.toContain('WIDE_FREIGHT');
    const [narrower] = quoteSchema.array().parse(await quoteOf(['-c', 'pallets=1,weight=500,dims=48x39x48,desc=Pump parts', '--carrier', 'SAML']));
    expect(narrower!.warnings?.map((warning) => warning.code)).not.toContain('WIDE_FREIGHT');
  });
});
