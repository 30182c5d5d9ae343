/** The quote wizard with carrier agreements loaded: it offers rate shopping and books the quote chosen. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { IO } from '../../src/cli/output.js';
import { runWizardFlow, type WizardDeps } from '../../src/cli/wizard/flow.js';
import { pricingChoices, STANDARD_ACCESSORIALS } from '../../src/cli/wizard/quoteWizard.js';
import { makeProblem } from '../../src/api/problems.js';
import type { ShipperApi } from '../../src/api/types.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';
import { LocationBook } from '../../src/store/locations.js';
import { tempDir } from '../helpers/cli.js';
import { ScriptedPrompter, step, type Step } from '../helpers/scriptedPrompter.js';

const NOW = new Date('2026-10-05T15:00:00Z');
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('shipper-wizard-rates-'));
});
afterEach(async () => cleanup());

async function harness(steps: Step[]) {
  const api = new LocalApi({ storeDir: join(dir, 'store'), agreementsDir: 'samples', now: () => NOW });
  // As the terminal wizard is wired: the accessorials and carriers the API lists.
  const { accessorials, agreementCarriers } = await pricingChoices(api);
  let out = '';
  const sink = { write: (chunk: string) => ((out += chunk), true) } as unknown as NodeJS.WritableStream;
  const io = new IO({ stdout: sink, stderr: sink, stdin: process.stdin }, { json: false, color: false, quiet: false }, {});
  const deps: WizardDeps = {
    prompter: new ScriptedPrompter(steps),
    api,
    io,
    zips: new ZipDirectory(),
    locations: new LocationBook(api.store.locations),
    now: () => NOW,
    accessorials,
    resolvePath: (path) => join(dir, path),
    fileExists: () => false,
    writeFile: async () => undefined,
    agreementCarriers,
  };
  return { deps, api, stdout: () => out };
}

const freight: Step[] = [
  step('Pickup ZIP', '60601'),
  step('Delivery ZIP', '10001'),
  step('Pickup date', ''),
  step('Accessorial', []),
  step('pallets', '2'),
  step('total weight', '1200'),
  step('dimensions', ''),
  step('description', ''),
  step('NMFC', ''),
  step('packaging', ''),
  step('loose pieces', ''),
  step('stackable', ''),
  step('Add another line?', false),
];

describe('the quote wizard with carrier agreements', () => {
  it('offers every carrier, prints the rate table and keeps the quote chosen', async () => {
    const h = await harness([
      ...freight,
      step('Price with', (choices) => {
        expect(choices.map((choice) => choice.short)).toEqual(['all carriers', 'SAML', 'SCFR', 'SPLX', 'the tariff']);
        return choices[0]!.value;
      }),
      step('Which quote?', (choices) => choices[1]!.value),
      step('Book this shipment', false),
    ]);
    const result = await runWizardFlow(h.deps, { accessorials: [], components: [] });
    expect(h.stdout()).toMatch(/cheapest/);
    const stored = await h.api.getQuote(result.quote.id);
    expect(stored.data.carrier?.scac).toBe(result.quote.carrier?.scac);
    expect(result.quote.pricedBy?.kind).toBe('AGREEMENT');
  });

  it('one carrier, or the tariff as before', async () => {
    const one = await harness([...freight, step('Price with', 'SPLX'), step('Book this shipment', false)]);
    expect((await runWizardFlow(one.deps, { accessorials: [], components: [] })).quote.carrier?.scac).toBe('SPLX');
    const tariff = await harness([...freight, step('Price with', (choices) => choices.at(-1)!.value), step('Book this shipment', false)]);
    const quote = (await runWizardFlow(tariff.deps, { accessorials: [], components: [] })).quote;
    expect(quote.carrier).toBeUndefined();
    expect(quote.pricedBy?.kind).toBe('TARIFF');
  });
});

describe('the accessorials the wizard offers', () => {
  it("are the API's: the tariff's with their charges, then those only carriers price, named so", async () => {
    const h = await harness([
      ...freight.map((item) => (item.expect === 'Accessorial' ? step('Accessorial', ['NOTIFY']) : item)),
      step('Price with', 'SPLX'),
      step('Book this shipment', false),
    ]);
    const { quote } = await runWizardFlow(h.deps, { accessorials: [], components: [] });
    expect(quote.priceBreakdown.accessorialsInCents).toEqual([{ code: 'NOTIFY', amountInCents: 4000 }]);
    const names = (h.deps.prompter as ScriptedPrompter).choicesSeen.get('Accessorial services (space to select, enter when done)')!.map((choice) => choice.name);
    expect(names[0]).toMatch(/^LIFTGATE_PICKUP\s+Liftgate at pickup \(\+\$75\.00\)$/);
    expect(names.slice(-2)).toEqual([
      expect.stringMatching(/^NOTIFY\s+Notify before delivery \(SAML, SPLX only\)$/),
      expect.stringMatching(/^OVERLENGTH\s+Overlength unit \(SAML only\)$/),
    ]);
  });

  it('are the standard codes, with no carriers, from a server without the accessorials extension', async () => {
    const without = (status: number) => ({ listAccessorials: () => Promise.reject(makeProblem(status, 'not-found', 'Not Found', 'no route')) }) as unknown as ShipperApi;
    expect(await pricingChoices(without(404))).toEqual({ accessorials: STANDARD_ACCESSORIALS, agreementCarriers: [] });
    await expect(pricingChoices(without(500))).rejects.toMatchObject({ status: 500 });
  });
});
