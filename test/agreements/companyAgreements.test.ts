/**
 * Carrier agreements of companies (issue 41): `companyIds` names the companies whose keys price
 * with an agreement; one agreement per carrier and company, so two agreements with one carrier
 * are right only when they name companies apart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAgreementDirectory } from '../../src/agreements/loadAgreements.js';
import { AgreementProvider, CompanyAgreements } from '../../src/api/local/agreementProvider.js';
import { WORKED_AGREEMENT, WORKED_BASE_RATES, writeAgreement } from './fixtures.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A directory of TSTC agreements, one per entry: its folder name and its companyIds (undefined: every company's). */
async function directory(agreements: Record<string, unknown>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'shipper-company-agreements-'));
  dirs.push(root);
  for (const [name, companyIds] of Object.entries(agreements)) {
    writeAgreement(root, name, {
      'agreement.json': { ...WORKED_AGREEMENT, agreement: name.toUpperCase(), ...(companyIds === undefined ? {} : { companyIds }) },
      'base-rates.csv': WORKED_BASE_RATES,
    });
  }
  return root;
}

const faultsOf = async (agreements: Record<string, unknown>) =>
  (await loadAgreementDirectory(await directory(agreements))).faults.map((fault) => `${fault.where}: ${fault.message}`);

describe('agreements of companies', () => {
  it('takes one carrier twice for companies apart, and gives each company its own and the shared ones', async () => {
    const root = await directory({ acme: ['acme'], others: ['globex', 'initech'] });
    expect((await loadAgreementDirectory(root)).faults).toEqual([]);
    const all = new AgreementProvider(root);
    const names = async (company: string) => (await new CompanyAgreements(all, company).load()).map((item) => item.name);
    expect(await names('acme')).toEqual(['acme']);
    expect(await names('initech')).toEqual(['others']);
    expect(await names('default')).toEqual([]);
  });

  it('refuses a carrier twice for one company: a shared agreement and a company one, or two naming a company both', async () => {
    expect(await faultsOf({ shared: undefined, acme: ['acme'] })).toEqual([
      'shared/agreement.json:1: scac TSTC is also the carrier of acme: one agreement per carrier and company',
    ]);
    expect(await faultsOf({ one: ['acme', 'globex'], two: ['globex'] })).toEqual([
      'two/agreement.json:1: scac TSTC is also the carrier of one for a company both name: one agreement per carrier and company',
    ]);
    expect(await faultsOf({ one: undefined, two: undefined })).toEqual(['two/agreement.json:1: scac TSTC is also the carrier of one: one agreement per carrier and company']);
  });

  it('refuses an empty companyIds and a company id that is no id, at the line it is written on', async () => {
    const empty = await faultsOf({ acme: [] });
    expect(empty).toHaveLength(1);
    expect(empty[0]).toMatch(/^acme\/agreement\.json:\d+: companyIds: companyIds names at least one company/);
    const bad = await faultsOf({ acme: ['no spaces allowed'] });
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/^acme\/agreement\.json:\d+: companyIds\[0\]: company ids are letters/);
  });
});
