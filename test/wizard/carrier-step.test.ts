/**
 * The wizard's carrier step with scripted answers on a real LocalApi: every answer judged as it
 * is typed (the schema's messages, the carrier's PRO check digit, the pickup window on its exact
 * boundary, money a cent over the limit), then the booking carries it all and the BOL prints it.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { IO } from '../../src/cli/output.js';
import { runWizardFlow, type WizardDeps } from '../../src/cli/wizard/flow.js';
import { STANDARD_ACCESSORIALS } from '../../src/cli/wizard/quoteWizard.js';
import { proCheckDigit } from '../../src/domain/proNumber.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';
import { LocationBook } from '../../src/store/locations.js';
import { readPdf } from '../bol/pdf-reader.js';
import { tempDir } from '../helpers/cli.js';
import { ScriptedPrompter, step, type Step } from '../helpers/scriptedPrompter.js';
import { CONTRACT_SETTINGS } from '../contract/suite.js';

const NOW = new Date('2026-10-05T15:00:00Z'); // Monday 10:00 in Chicago

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('shipper-wizard-carrier-'));
});
afterEach(async () => cleanup());

function harness(steps: Step[]) {
  const api = new LocalApi({ storeDir: join(dir, 'store'), now: () => NOW, carriers: CONTRACT_SETTINGS.carriers });
  let out = '';
  const sink = { write: (chunk: string) => ((out += chunk), true) } as unknown as NodeJS.WritableStream;
  const io = new IO({ stdout: sink, stderr: sink, stdin: process.stdin }, { json: false, color: false, quiet: false }, {});
  const prompter = new ScriptedPrompter(steps);
  const book = new LocationBook(api.store.locations);
  const deps: WizardDeps = {
    prompter,
    api,
    io,
    zips: new ZipDirectory(),
    locations: book,
    now: () => NOW,
    accessorials: STANDARD_ACCESSORIALS,
    resolvePath: (path) => join(dir, path),
    fileExists: () => false,
    writeFile: (path, bytes) => writeFile(path, bytes),
    carriers: CONTRACT_SETTINGS.carriers,
  };
  return { deps, api, prompter, book, output: () => out };
}

/** Chicago -> Atlanta, two lines (paint, then brushes), booked with typed addresses. */
const UP_TO_CARRIER: Step[] = [
  step('Pickup ZIP', '60601'),
  step('Delivery ZIP', '30301'),
  step('Pickup date', ''),
  step('Accessorial', []),
  step('pallets', '2'),
  step('total weight', '800'),
  step('dimensions', ''),
  step('description', 'Paint'),
  step('NMFC', ''),
  step('packaging', 'pails'),
  step('loose pieces', '40'),
  step('stackable', ''),
  step('Add another line?', true),
  step('pallets', '1'),
  step('total weight', '300'),
  step('dimensions', '48x40x40'),
  step('description', 'Brushes'),
  step('NMFC', ''),
  step('packaging', ''),
  step('loose pieces', ''),
  step('stackable', ''),
  step('Add another line?', false),
  step('Book this shipment', true),
  step('reference', 'PO-HAZ-1'),
  step('Ship from: company name', 'Acme Paints'),
  step('Ship from: street', '100 N State St'),
  step('street line 2', ''),
  step('Ship from: city', ''),
  step('Ship from: state', ''),
  step('contact name', ''),
  step('phone', ''),
  step('Save this address', ''),
  step('Ship to: company name', 'Peach Supply Co'),
  step('Ship to: street', '1 Peachtree St NE'),
  step('street line 2', ''),
  step('Ship to: city', ''),
  step('Ship to: state', ''),
  step('contact name', ''),
  step('phone', ''),
  step('Save this address', ''),
];

describe('the carrier step of the wizard', () => {
  it('judges each answer as typed, books every carrier field, and the BOL prints them', async () => {
    const h = harness([
      ...UP_TO_CARRIER,
      step('Add carrier details', true),
      step('Carrier SCAC', 'odfl1'),
      step('Carrier SCAC', 'odfl'),
      step('Carrier name', ''), // the settings' name
      step('PRO number', '1234-567'), // too short for the block
      step('PRO number', '1234-5678-3'), // wrong check digit
      step('PRO number', ''), // the next of the block
      step('Freight charges', 'THIRD_PARTY'),
      step('Bill to: company name', 'Acme Payables'),
      step('Bill to: street', '200 W Monroe St'),
      step('Bill to: ZIP', '6060'),
      step('Bill to: ZIP', '60606'),
      step('Bill to: city', ''), // the ZIP's city
      step('Bill to: state', 'wi'), // against the ZIP
      step('Bill to: state', 'il'),
      step('Freight ready at', '16:00'),
      step('Dock closes at', '16:00'), // closes as it opens
      step('Dock closes at', '16:01'),
      step('Declared value', '10,000,000.01'),
      step('Declared value', '$10,000,000'),
      step('COD amount', '12.345'),
      step('COD amount', '1,250.50'),
      step('COD fee paid by', 'PREPAID'),
      step('Customer check acceptable', true),
      step('FOB', 'ORIGIN'),
      step('Master bill of lading', false),
      step('Hazardous materials', [0]),
      step('Line 1: UN/NA number', '1263'),
      step('Line 1: UN/NA number', 'un 1263'),
      step('Line 1: proper shipping name', 'Paint'),
      step('Line 1: hazard class', '3.5'),
      step('Line 1: hazard class', '3'),
      step('Line 1: packing group', 'III'),
      step('Emergency response phone', ''),
      step('Emergency response phone', '800-424-9300'),
      step('Print the Bill of Lading', true),
      step('BOL template', 'standard'),
      step('Save the PDF as', ''),
    ]);
    const result = await runWizardFlow(h.deps, { accessorials: [], components: [] });
    expect(h.prompter.remaining).toBe(0);
    expect(h.prompter.rejected.map(({ value, reason }) => [value, reason])).toEqual([
      ['odfl1', 'a SCAC is 2 to 4 letters, e.g. ODFL (carrier.scac)'],
      ['1234-567', 'ODFL PRO numbers here are 8 digits and a check digit (9 characters) (proNumber)'],
      ['1234-5678-3', '1234-5678-3 fails the ODFL check digit (MOD7): it ends in 3, the check digit of 12345678 is 2 (proNumber)'],
      ['6060', expect.stringMatching(/\(freightChargeTerms\.billTo\.zipCode\)$/)],
      ['wi', 'WI does not match ZIP 60606, which is in Chicago, IL; correct the state or the ZIP (freightChargeTerms.billTo.state)'],
      ['16:00', 'the dock closes (16:00) at the time the freight is ready (16:00): the window is empty (pickupWindow.closeTime)'],
      ['10,000,000.01', 'amountInCents must be at most 1000000000 cents ($10,000,000) (declaredValue.amountInCents)'],
      ['12.345', '"12.345" is not an amount in dollars, e.g. 1250 or 1,250.50 (cod.amountInCents)'],
      ['1263', 'an identification number is UN or NA and 4 digits, e.g. UN1203 (orderComponents[0].hazmat.unNumber)'],
      ['3.5', 'a hazard class or division of 49 CFR 173.2, e.g. 3, 2.1, 8 (orderComponents[0].hazmat.hazardClass)'],
      ['', 'an emergency response telephone number is required with hazardous lines (emergencyContactPhone)'],
    ]);

    const shipment = result.shipment!;
    expect(shipment).toMatchObject({
      refNumber: 'PO-HAZ-1',
      carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
      freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { name: 'Acme Payables', address1: '200 W Monroe St', city: 'Chicago', state: 'IL', zipCode: '60606' } },
      pickupWindow: { readyTime: '16:00', closeTime: '16:01' },
      declaredValue: { amountInCents: 1_000_000_000, per: 'SHIPMENT' },
      cod: { amountInCents: 125_050, feeTerms: 'PREPAID', customerCheckAcceptable: true },
      fob: 'ORIGIN',
      masterBol: false,
      emergencyContactPhone: '800-424-9300',
    });
    expect(shipment.orderComponents.map((component) => component.hazmat ?? null)).toEqual([
      { unNumber: 'UN1263', properShippingName: 'Paint', hazardClass: '3', packingGroup: 'III' },
      null,
    ]);
    const pro = shipment.proNumber!;
    expect(proCheckDigit('MOD7', pro.slice(0, -1))).toBe(pro.slice(-1));
    // Ready at 16:00 is after ODFL's 15:00 cut-off: said, not refused.
    expect(h.output()).toContain("warning: [PICKUP_AFTER_CUTOFF] the freight is ready at 16:00, at or after Old Dominion Freight Line's pickup cut-off 15:00");
    expect(h.output()).toContain(`Carrier Old Dominion Freight Line (ODFL) · PRO ${pro}`);

    const text = (await readPdf(new Uint8Array(readFileSync(result.bolFile!)))).pages.map((page) => page.text).join(' ');
    for (const printed of ['UN1263, Paint, 3, PG III', pro, 'Acme Payables', '800-424-9300']) expect(text).toContain(printed);
  });

  it('by default (No) asks nothing more and books no carrier field', async () => {
    const h = harness([...UP_TO_CARRIER, step('Add carrier details', false), step('Print the Bill of Lading', false)]);
    const { shipment } = await runWizardFlow(h.deps, { accessorials: [], components: [] });
    expect(h.prompter.remaining).toBe(0);
    expect(shipment).toMatchObject({
      carrier: null,
      proNumber: null,
      freightChargeTerms: { terms: 'PREPAID', billTo: null },
      cod: null,
      pickupWindow: null,
      emergencyContactPhone: null,
    });
    expect(shipment!.orderComponents.every((component) => !component.hazmat)).toBe(true);
  });

  it('a bill-to can be a saved location anywhere (not only on the lane); no hazardous line asks no phone', async () => {
    const h = harness([
      ...UP_TO_CARRIER,
      step('Add carrier details', true),
      step('Carrier SCAC', ''),
      step('PRO number', ''),
      step('Freight charges', 'THIRD_PARTY'),
      step('Bill to', (choices) => choices.find((choice) => choice.name.startsWith('payables:'))!.value),
      step('Freight ready at', ''),
      step('Declared value', ''),
      step('COD amount', ''),
      step('FOB', null as unknown as string),
      step('Master bill of lading', true),
      step('Hazardous materials', []),
      step('Print the Bill of Lading', false),
    ]);
    await h.book.save('payables', { name: 'Acme Payables', address1: '1 Main St', city: 'Dallas', state: 'TX', zipCode: '75201', countryCode: 'US' });
    const { shipment } = await runWizardFlow(h.deps, { accessorials: [], components: [] });
    expect(h.prompter.remaining).toBe(0);
    expect(shipment).toMatchObject({
      carrier: null,
      proNumber: null,
      masterBol: true,
      fob: null,
      freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { city: 'Dallas', zipCode: '75201' } },
    });
  });

  it('reads a ready time written 8:00 AM as the CSV does (issue 20, item 21); 13:00 PM is refused', async () => {
    const h = harness([
      ...UP_TO_CARRIER,
      step('Add carrier details', true),
      step('Carrier SCAC', ''),
      step('PRO number', ''),
      step('Freight charges', 'PREPAID'),
      step('Freight ready at', '13:00 PM'),
      step('Freight ready at', '8:00 AM'),
      step('Dock closes at', '8:00 am'), // the same time: an empty window (the boundary)
      step('Dock closes at', '4:30 PM'),
      step('Declared value', ''),
      step('COD amount', ''),
      step('FOB', null as unknown as string),
      step('Master bill of lading', false),
      step('Hazardous materials', []),
      step('Print the Bill of Lading', false),
    ]);
    const { shipment } = await runWizardFlow(h.deps, { accessorials: [], components: [] });
    expect(h.prompter.remaining).toBe(0);
    expect(h.prompter.rejected.map(({ value }) => value)).toEqual(['13:00 PM', '8:00 am']);
    expect(h.prompter.rejected[0]!.reason).toMatch(/an hour before AM or PM is 1 to 12/);
    expect(shipment).toMatchObject({ pickupWindow: { readyTime: '08:00', closeTime: '16:30' } });
  });
});
