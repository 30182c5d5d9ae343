/**
 * The wizard's flow with injected answers: a real LocalApi on a temporary store, a scripted
 * prompter, a fixed clock (Mon 2026-10-05 10:00 Chicago, no carrier holiday that week).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { notFound } from '../../src/api/problems.js';
import { CliError, ExitCode } from '../../src/cli/errors.js';
import { IO } from '../../src/cli/output.js';
import { STANDARD_ACCESSORIALS } from '../../src/cli/wizard/quoteWizard.js';
import {
  addressFieldProblem,
  componentFieldProblem,
  parseDimensions,
  readNumber,
  runWizardFlow,
  zipHint,
  zipProblem,
  type WizardDeps,
  type WizardDefaults,
} from '../../src/cli/wizard/flow.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';
import { LocationBook } from '../../src/store/locations.js';
import { INTERRUPT, ScriptedPrompter, step, type Step } from '../helpers/scriptedPrompter.js';
import { tempDir } from '../helpers/cli.js';

const NOW = new Date('2026-10-05T15:00:00Z'); // Monday 10:00 in Chicago
const FAKE_PDF = new TextEncoder().encode('%PDF-1.7\n% fake BOL for the wizard tests\n%%EOF\n');
const NO_DEFAULTS: WizardDefaults = { accessorials: [], components: [] };

const CHICAGO_DOCK = {
  name: 'Acme Machine Co',
  address1: '100 N State St',
  city: 'Chicago',
  state: 'IL',
  zipCode: '60601',
  countryCode: 'US' as const,
};

interface Harness {
  deps: WizardDeps;
  api: LocalApi;
  prompter: ScriptedPrompter;
  book: LocationBook;
  stdout: () => string;
  dir: string;
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('shipper-wizard-'));
});
afterEach(async () => cleanup());

function harness(steps: Step[], tune: (api: LocalApi) => void = () => undefined): Harness {
  const api = new LocalApi({ storeDir: join(dir, 'store'), now: () => NOW });
  tune(api);
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
    fileExists: (path) => existsSync(path),
    writeFile: async (path, bytes) => {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path, bytes);
    },
  };
  return { deps, api, prompter, book, stdout: () => out, dir };
}

/** Answers for the lane, date and accessorials of a Chicago -> Atlanta quote. */
const laneSteps = (pickup = ''): Step[] => [step('Pickup ZIP', '60601'), step('Delivery ZIP', '30301'), step('Pickup date', pickup), step('Accessorial', ['LIFTGATE_DELIVERY'])];

const lineSteps = (pallets: string, weight: string, dims: string, description = '', more = false): Step[] => [
  step('pallets', pallets),
  step('total weight', weight),
  step('dimensions', dims),
  step('description', description),
  step('NMFC', ''),
  step('packaging', ''),
  step('loose pieces', ''),
  step('stackable', ''),
  step('Add another line?', more),
];

/** Ship from the first saved location, to a new Atlanta consignee (city and state from its ZIP) with a contact and the phone given. */
const peachConsigneeSteps = (phone: string): Step[] => [
  step('Ship from', (choices) => choices[0]!.value),
  step('Ship to: company name', 'Peach Supply Co'),
  step('Ship to: street', '1 Peachtree St NE'),
  step('street line 2', ''),
  step('Ship to: city', ''),
  step('Ship to: state', ''),
  step('contact name', 'Dana Lee'),
  step('phone', phone),
];

async function count(api: LocalApi, collection: 'quotes' | 'shipments' | 'locations'): Promise<number> {
  if (collection === 'locations') return (await api.store.locations.names()).length;
  return (await api.store[collection].list({}, { limit: 1000 })).items.length;
}

describe('quote wizard flow', () => {
  it('quotes two lines, books them with a saved and a new address, and prints the BOL', async () => {
    const h = harness(
      [
        ...laneSteps(),
        step('Line 1: pallets', '2'),
        step('total weight', '1,200 lb'),
        step('dimensions', ''), // the default 48x40x48
        step('description', 'Machine parts'),
        step('NMFC', '161030'),
        step('packaging', 'crates'),
        step('loose pieces', '10'),
        step('stackable', ''),
        step('Add another line?', true),
        ...lineSteps('1', '300', '40x48x60', 'Spare belts'),
        step('Book this shipment', true),
        step('reference', 'PO-4471'),
        ...peachConsigneeSteps(''),
        step('Save this address', 'atlanta-store'),
        step('Add carrier details', false),
        step('Print the Bill of Lading', true),
        step('BOL template', 'partner'),
        step('Save the PDF as', ''),
      ],
      (api) => {
        api.renderBol = async () => ({ data: FAKE_PDF, warnings: [] });
        api.listBolTemplates = async () => ({
          data: {
            items: [
              { name: 'standard', description: 'VICS standard' },
              { name: 'partner', description: 'Partner branded' },
            ],
          },
          warnings: [],
        });
      },
    );
    await h.book.save('chicago-dock', CHICAGO_DOCK);

    const result = await runWizardFlow(h.deps, NO_DEFAULTS);

    expect(h.prompter.remaining).toBe(0);
    expect(result.quote.orderComponents.map((line) => [line.palletCount, line.poundsWeight, line.freightClass])).toEqual([
      [2, 1200, '92.5'],
      [1, 300, '175'],
    ]);
    expect(result.quote.accessorials).toEqual(['LIFTGATE_DELIVERY']);
    expect(result.quote.requiredPickupDate).toBe('2026-10-06'); // the next business day
    const shipment = result.shipment!;
    expect(shipment.refNumber).toBe('PO-4471');
    expect(shipment.pickupAddress).toMatchObject({ name: 'Acme Machine Co', zipCode: '60601' });
    expect(shipment.deliveryAddress).toMatchObject({ name: 'Peach Supply Co', city: 'Atlanta', state: 'GA', zipCode: '30301', contactPerson: 'Dana Lee', address2: null });
    expect(shipment.orderComponents.map((line) => [line.description, line.nmfcCode, line.packagingType, line.pieceCount])).toEqual([
      ['Machine parts', '161030', 'crates', 10],
      ['Spare belts', null, null, null],
    ]);
    expect(await h.book.get('atlanta-store')).toMatchObject({ address: { name: 'Peach Supply Co' } });
    expect(result.bolFile).toBe(join(dir, `BOL-${shipment.orderNumber}.pdf`));
    expect(readFileSync(result.bolFile!, 'latin1').startsWith('%PDF')).toBe(true);
    // What the person saw: city and state of each ZIP, the class per line, price and booking.
    expect(h.prompter.shown).toContain('60601  Chicago, IL');
    expect(h.prompter.shown).toContain('48x40x48  11.25 pcf, class 92.5');
    expect(h.stdout()).toMatch(/Pickup Tue 2026-10-06 \(tomorrow\): 3 business days in transit, ETA Fri 2026-10-09 \d\d:00 EDT/);
    expect(h.stdout()).toMatch(/Total\s+\$[\d,]+\.\d\d/);
    expect(h.stdout()).toContain(`Booked ${shipment.orderNumber}`);
    expect(h.stdout()).toContain(`Wrote BOL-${shipment.orderNumber}.pdf`);
    // The saved dock has no contact or phone: the order is created, not confirmed, and the person is told what it lacks.
    expect(shipment.orderStatus).toBe('INITIALIZED');
    expect(h.stdout()).toContain(`Not confirmed: it lacks pickupAddress.contactPerson, pickupAddress.phoneNumber`);
    expect(h.stdout()).toContain(`then shipper shipment confirm ${shipment.orderNumber}`);
  });

  it('confirms the order it books when both addresses have a contact and a phone, as shipper ship does', async () => {
    const h = harness([
      ...laneSteps(),
      ...lineSteps('1', '500', '48x40x48', 'Machine parts'),
      step('Book this shipment', true),
      step('reference', 'PO-4472'),
      ...peachConsigneeSteps('(404) 555-0188'),
      step('Save this address', ''),
      step('Add carrier details', false),
      step('Print the Bill of Lading', false),
    ]);
    await h.book.save('chicago-dock', { ...CHICAGO_DOCK, contactPerson: 'Dock Manager', phoneNumber: '312-555-0100' });

    const result = await runWizardFlow(h.deps, NO_DEFAULTS);

    expect(h.prompter.remaining).toBe(0);
    const shipment = result.shipment!;
    expect(shipment.orderStatus).toBe('CONFIRMED');
    // The phones as typed, stored as the published E.164 (what confirm checks).
    expect(shipment.pickupAddress.phoneNumber).toBe('+13125550100');
    expect(shipment.deliveryAddress.phoneNumber).toBe('+14045550188');
    expect((await h.api.getShipment(shipment.orderNumber)).data.orderStatus).toBe('CONFIRMED');
    expect(h.stdout()).toContain(`Booked ${shipment.orderNumber}`);
    expect(h.stdout()).toContain('CONFIRMED');
    expect(h.stdout()).not.toContain('Not confirmed');
  });

  it('shows the exact class on a density boundary, refuses a state that contradicts the ZIP and books with the city warning', async () => {
    const h = harness([
      step('Pickup ZIP', '60601'),
      step('Delivery ZIP', '99501'),
      step('Pickup date', ''),
      step('Accessorial', []),
      // 1,000 lb on 48x48x50 in is exactly 15 pcf: class 70 (floating point would say 14.99..., class 85).
      ...lineSteps('1', '1000', '48x48x50'),
      step('Book this shipment', true),
      step('reference', ''),
      step('Ship from', (choices) => choices[0]!.value),
      step('Ship to: company name', 'Northern Supply'),
      step('Ship to: street', '100 W 5th Ave'),
      step('street line 2', ''),
      step('Ship to: city', 'Eagle River'),
      step('Ship to: state', 'IL'),
      step('Ship to: state', 'ak'),
      step('contact name', ''),
      step('phone', ''),
      step('Save this address', 'anchorage-store'),
      step('Add carrier details', false),
      step('Print the Bill of Lading', false),
    ]);
    await h.book.save('chicago-dock', CHICAGO_DOCK);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    // Beside the live class, the freight check's line rules: an inch more on a side is class 85.
    expect(h.prompter.shown).toContain('48x48x50  15 pcf, class 70  DENSITY_MARGIN: class 85 with 1 in more height');
    expect(result.quote.orderComponents[0]).toMatchObject({ densityPcf: 15, freightClass: '70' });
    expect(h.prompter.rejected).toEqual([
      {
        message: 'Ship to: state',
        value: 'IL',
        reason: 'IL does not match ZIP 99501, which is in Anchorage, AK; correct the state or the ZIP (deliveryAddress.state)',
      },
    ]);
    expect(result.shipment!.deliveryAddress).toMatchObject({ city: 'Eagle River', state: 'AK', zipCode: '99501' });
    expect(h.stdout()).toContain(
      'warning: [ADDRESS_CITY_MISMATCH] Eagle River is not the USPS city of ZIP 99501 (Anchorage, AK); check the address, carriers route by the ZIP (deliveryAddress.city)',
    );
    expect(await h.book.get('anchorage-store')).toMatchObject({ address: { state: 'AK' } });
  });

  it('asks whether a line is stackable: "n" is classed at 96 in high, warned with its code and price at stake; a wide line is flagged as it is typed', async () => {
    const h = harness([
      // No liftgate: a pallet 72 in wide is beyond the 62x62x94 in a liftgate takes (the published limits).
      ...laneSteps().slice(0, 3),
      step('Accessorial', []),
      step('Line 1: pallets', '1'),
      step('total weight', '400'),
      step('dimensions', '48x72x40'),
      step('description', 'Display cases'),
      step('NMFC', ''),
      step('packaging', ''),
      step('loose pieces', ''),
      step('stackable', 'maybe'),
      step('stackable', 'n'),
      step('Add another line?', false),
      step('Book this shipment', false),
    ]);
    await h.book.save('chicago-dock', CHICAGO_DOCK);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    expect(h.prompter.shown.some((shown) => /^48x72x40 {2}[\d.]+ pcf, class \d+ {2}WIDE_FREIGHT: class \d+$/.test(shown))).toBe(true);
    expect(h.prompter.rejected).toContainEqual(expect.objectContaining({ value: 'maybe', reason: 'answer y, n, or leave it empty (orderComponents[0].stackable)' }));
    expect(result.quote.orderComponents[0]).toMatchObject({ stackable: false });
    expect(h.stdout()).toMatch(/warning: \[NON_STACKABLE_HEIGHT\] line 1: not stackable: carriers class it as 96 in high .*price at stake: \$[\d,.]+ instead of \$[\d,.]+/);
    expect(h.stdout()).toMatch(/warning: \[WIDE_FREIGHT\] line 1: 72 in wide/);
  });

  it('refuses an unknown ZIP at the prompt and takes the corrected one', async () => {
    const h = harness([
      step('Pickup ZIP', '00000'),
      step('Pickup ZIP', '6060'),
      step('Pickup ZIP', '60601'),
      step('Delivery ZIP', '30301'),
      step('Pickup date', ''),
      step('Accessorial', []),
      ...lineSteps('1', '500', '48x40x40'),
      step('Book this shipment', false),
    ]);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    expect(h.prompter.rejected.map((rejection) => rejection.reason)).toEqual([
      'unknown ZIP 00000 (pickupAddress.zipCode)',
      'a ZIP code is 5 digits, e.g. 60601 (pickupAddress.zipCode)',
    ]);
    expect(result.quote.pickupAddress).toMatchObject({ zipCode: '60601', city: 'Chicago', state: 'IL' });
    expect(result.shipment).toBeUndefined();
    expect(await count(h.api, 'shipments')).toBe(0);
    expect(h.stdout()).toContain(`book it later with: shipper ship --quote ${result.quote.id}`);
  });

  it('refuses weekend and past pickup dates with the reason, and reads dates in words', async () => {
    const h = harness([
      step('Pickup ZIP', '60601'),
      step('Delivery ZIP', '10001'),
      step('Pickup date', 'saturday'),
      step('Pickup date', '2026-10-02'),
      step('Pickup date', 'someday'),
      step('Pickup date', 'thursday'),
      step('Accessorial', []),
      ...lineSteps('1', '500', '48x40x40'),
      step('Book this shipment', false),
    ]);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    const reasons = h.prompter.rejected.map((rejection) => rejection.reason);
    expect(reasons[0]).toMatch(/^Sat 2026-10-10 is .*: carriers do not pick up; next pickup Mon 2026-10-12 \(pickupDate\)$/);
    expect(reasons[1]).toBe('2026-10-02 is in the past (today is 2026-10-05 at the origin) (pickupDate)');
    expect(reasons[2]).toMatch(/^cannot read "someday" as a date/);
    expect(result.quote.requiredPickupDate).toBe('2026-10-08');
    expect(h.prompter.shown).toContain('thursday  Thu 2026-10-08');
  });

  it('refuses a date without a year that passed days ago as past, not as next year (issue 20, item 12); hex weights are not numbers (item 14)', async () => {
    const h = harness([
      step('Pickup ZIP', '60601'),
      step('Delivery ZIP', '10001'),
      step('Pickup date', '10/2'),
      step('Pickup date', 'Oct 4'),
      step('Pickup date', '10/6'),
      step('Accessorial', []),
      step('pallets', '1'),
      step('total weight', '0x1F4'),
      step('total weight', '1,200'),
      step('dimensions', '0x30x40x40'),
      step('dimensions', '48x40x40'),
      step('description', ''),
      step('NMFC', ''),
      step('packaging', ''),
      step('loose pieces', ''),
      step('stackable', ''),
      step('Add another line?', false),
      step('Book this shipment', false),
    ]);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    const reasons = h.prompter.rejected.map((rejection) => rejection.reason);
    expect(reasons[0]).toBe('2026-10-02 is in the past (today is 2026-10-05 at the origin) (pickupDate)');
    expect(reasons[1]).toBe('2026-10-04 is in the past (today is 2026-10-05 at the origin) (pickupDate)');
    expect(reasons[2]).toBe('poundsWeight must be a number (orderComponents[0].poundsWeight)');
    expect(reasons).toHaveLength(4);
    expect(result.quote.requiredPickupDate).toBe('2026-10-06');
    expect(result.quote.orderComponents[0]!.poundsWeight).toBe(1200);
  });

  // Needs the real transit module (carrier holidays); the stub in a tree without it knows weekends only.
  it('refuses Thanksgiving as a pickup date and names the holiday', async () => {
    const h = harness([
      step('Pickup ZIP', '60601'),
      step('Delivery ZIP', '10001'),
      step('Pickup date', '2026-11-26'),
      step('Pickup date', '2026-11-27'),
      step('Accessorial', []),
      ...lineSteps('1', '500', '48x40x40'),
      step('Book this shipment', false),
    ]);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    expect(h.prompter.rejected).toHaveLength(1);
    expect(h.prompter.rejected[0]!.reason).toMatch(/^Thu 2026-11-26 is .*Thanksgiving.*: carriers do not pick up; next pickup Fri 2026-11-27/);
    expect(result.quote.requiredPickupDate).toBe('2026-11-27');
  });

  it('checks each freight field with the API schema as it is typed', async () => {
    const h = harness([
      ...laneSteps(),
      step('pallets', '0'),
      step('pallets', '1.5'),
      step('pallets', '3'),
      step('total weight', 'heavy'),
      step('total weight', '-5'),
      step('total weight', '900'),
      step('dimensions', '48x40'),
      step('dimensions', '48x0x40'),
      step('dimensions', '48 x 40 x 50'),
      step('description', 'x'.repeat(257)),
      step('description', 'Boxed pumps'),
      step('NMFC', 'N'.repeat(33)),
      step('NMFC', ''),
      step('packaging', ''),
      step('loose pieces', '-1'),
      step('loose pieces', '0'),
      step('stackable', ''),
      step('Add another line?', false),
      step('Book this shipment', false),
    ]);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    expect(h.prompter.rejected.map((rejection) => rejection.reason)).toEqual([
      'palletCount must be at least 1 (orderComponents[0].palletCount)',
      'palletCount must be a whole number (orderComponents[0].palletCount)',
      'poundsWeight must be a number (orderComponents[0].poundsWeight)',
      'poundsWeight must be at least 1 lb (orderComponents[0].poundsWeight)',
      'write length x width x height in inches, e.g. 48x40x48 (orderComponents[0].dimensions)',
      'width must be at least 1 in (orderComponents[0].dimensions.width)',
      'must be at most 256 characters (orderComponents[0].description)',
      'must be at most 32 characters (orderComponents[0].nmfcCode)',
      'pieceCount must be 0 or more (orderComponents[0].pieceCount)',
    ]);
    expect(result.quote.orderComponents[0]).toMatchObject({
      palletCount: 3,
      poundsWeight: 900,
      dimensions: { length: 48, width: 40, height: 50 },
      description: 'Boxed pumps',
      nmfcCode: null,
      pieceCount: 0,
    });
  });

  it('Ctrl-C before the quote is shown writes nothing', async () => {
    const h = harness([...laneSteps(), step('pallets', '2'), step('total weight', INTERRUPT)]);
    await h.book.save('chicago-dock', CHICAGO_DOCK);
    await expect(runWizardFlow(h.deps, NO_DEFAULTS)).rejects.toMatchObject({ name: 'ExitPromptError' });
    expect(await count(h.api, 'quotes')).toBe(0);
    expect(await count(h.api, 'shipments')).toBe(0);
  });

  it('Ctrl-C after the quote keeps the quote, books nothing and says so', async () => {
    const h = harness([...laneSteps(), ...lineSteps('1', '500', '48x40x40'), step('Book this shipment', true), step('reference', INTERRUPT)]);
    const error = await runWizardFlow(h.deps, NO_DEFAULTS).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode()).toBe(ExitCode.interrupted);
    expect((error as CliError).message).toMatch(/^cancelled; quote qt_\w+ is saved, nothing was booked$/);
    expect(await count(h.api, 'quotes')).toBe(1);
    expect(await count(h.api, 'shipments')).toBe(0);
  });

  it('a BOL that cannot be rendered leaves the booking and says how to print it later', async () => {
    const h = harness(
      [
        ...laneSteps(),
        ...lineSteps('1', '500', '48x40x40'),
        step('Book this shipment', true),
        step('reference', ''),
        step('Ship from: company name', 'Acme'),
        step('Ship from: street', '1 Main St'),
        step('street line 2', ''),
        step('Ship from: city', ''),
        step('Ship from: state', ''),
        step('contact name', ''),
        step('phone', ''),
        step('Save this address', ''),
        step('Ship to: company name', 'Peach'),
        step('Ship to: street', '2 Main St'),
        step('street line 2', ''),
        step('Ship to: city', ''),
        step('Ship to: state', ''),
        step('contact name', ''),
        step('phone', ''),
        step('Save this address', ''),
        step('Add carrier details', false),
        step('Print the Bill of Lading', true),
        step('Save the PDF as', 'out.pdf'),
      ],
      (api) => {
        api.listBolTemplates = async () => Promise.reject(new Error('no renderer'));
        api.renderBol = async () => Promise.reject(new Error('font missing'));
      },
    );
    const error = (await runWizardFlow(h.deps, NO_DEFAULTS).catch((caught: unknown) => caught)) as CliError;
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toMatch(/^shipment SO-\d+ is booked, but its BOL was not printed: font missing \(print it later: shipper bol sh_\w+\)$/);
    expect(await count(h.api, 'shipments')).toBe(1);
    expect(existsSync(join(dir, 'out.pdf'))).toBe(false);
    expect(await count(h.api, 'locations')).toBe(0);
  });

  it('refuses to overwrite a PDF and an existing location name', async () => {
    const h = harness(
      [
        ...laneSteps(),
        ...lineSteps('1', '500', '48x40x40'),
        step('Book this shipment', true),
        step('reference', ''),
        step('Ship from', null as unknown as string),
        step('Ship from: company name', 'Acme Two'),
        step('Ship from: street', '5 Lake St'),
        step('street line 2', ''),
        step('Ship from: city', ''),
        step('Ship from: state', ''),
        step('contact name', ''),
        step('phone', ''),
        step('Save this address', 'Chicago-Dock'),
        step('Save this address', 'bad name!'),
        step('Save this address', ''),
        step('Ship to: company name', 'Peach'),
        step('Ship to: street', '2 Main St'),
        step('street line 2', ''),
        step('Ship to: city', ''),
        step('Ship to: state', ''),
        step('contact name', ''),
        step('phone', ''),
        step('Save this address', ''),
        step('Add carrier details', false),
        step('Print the Bill of Lading', true),
        step('Save the PDF as', 'taken.pdf'),
        step('Save the PDF as', 'free.pdf'),
      ],
      (api) => {
        api.renderBol = async () => ({ data: FAKE_PDF, warnings: [] });
        api.listBolTemplates = async () => ({ data: { items: [{ name: 'standard', description: 'VICS' }] }, warnings: [] });
      },
    );
    await h.book.save('chicago-dock', CHICAGO_DOCK);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'taken.pdf'), 'keep me');
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    expect(h.prompter.rejected.map((rejection) => rejection.reason)).toEqual([
      'there is already a location named Chicago-Dock; pick another name',
      'location names are letters, digits, - and _ (at most 64)',
      'taken.pdf already exists; choose another name',
    ]);
    expect(readFileSync(join(dir, 'taken.pdf'), 'utf8')).toBe('keep me');
    expect(result.bolFile).toBe(join(dir, 'free.pdf'));
    expect(result.shipment!.pickupAddress.name).toBe('Acme Two');
    expect((await h.book.get('chicago-dock'))!.address.name).toBe('Acme Machine Co');
  });

  it('uses answers given as flags: components are not asked again', async () => {
    const h = harness([step('Pickup ZIP', ''), step('Delivery ZIP', ''), step('Pickup date', ''), step('Accessorial', ['APPOINTMENT']), step('Book this shipment', false)]);
    const result = await runWizardFlow(h.deps, {
      from: '60601',
      to: '94105',
      pickupDate: 'friday',
      accessorials: ['APPOINTMENT'],
      components: [{ palletCount: 2, poundsWeight: 800, dimensions: { length: 48, width: 40, height: 40 } }],
    });
    expect(result.quote).toMatchObject({ requiredPickupDate: '2026-10-09', deliveryAddress: { zipCode: '94105', city: 'San Francisco' } });
    expect(result.quote.orderComponents).toHaveLength(1);
    const accessorialChoices = h.prompter.choicesSeen.get('Accessorial services (space to select, enter when done)')!;
    expect(accessorialChoices.find((choice) => choice.value === 'APPOINTMENT')?.checked).toBe(true);
  });

  it('works against a server without the transit extension (standard carrier calendar)', async () => {
    const h = harness(
      [
        step('Pickup ZIP', '60601'),
        step('Delivery ZIP', '30301'),
        step('Pickup date', 'sunday'),
        step('Pickup date', ''),
        step('Accessorial', []),
        ...lineSteps('1', '500', '48x40x40'),
        step('Book this shipment', false),
      ],
      (api) => {
        api.transitTimes = async () => Promise.reject(notFound('route', 'POST /v1/shipper/transit'));
      },
    );
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    expect(h.prompter.rejected[0]!.reason).toMatch(/^Sun 2026-10-11 is .*: carriers do not pick up; next pickup Mon 2026-10-12/);
    expect(result.quote.requiredPickupDate).toBe('2026-10-06');
  });
});

describe('wizard answer checks', () => {
  const zips = new ZipDirectory();

  it('names the city and state of a ZIP as it is typed', () => {
    expect(zipHint('606', zips)).toBe('');
    expect(zipHint('60601', zips)).toBe('Chicago, IL');
    expect(zipHint('99501', zips)).toBe('Anchorage, AK');
    expect(zipHint('00000', zips)).toBe('unknown ZIP');
    expect(zipProblem('30301-1234', 'deliveryAddress.zipCode', zips)).toBe(true);
    expect(zipProblem('abcde', 'deliveryAddress.zipCode', zips)).toBe('a ZIP code is 5 digits, e.g. 60601 (deliveryAddress.zipCode)');
  });

  it('reads dimensions and numbers the way people type them', () => {
    expect(parseDimensions('48x40x48')).toEqual({ length: 48, width: 40, height: 48 });
    expect(parseDimensions(' 48 X 40 * 47.5 ')).toEqual({ length: 48, width: 40, height: 47.5 });
    expect(parseDimensions('48x40')).toBeNull();
    expect(parseDimensions('48xx40')).toBeNull();
    expect(readNumber('1,200 lb')).toBe(1200);
    expect(readNumber('12.5')).toBe(12.5);
    expect(readNumber('twelve')).toBe('twelve');
  });

  it('reports field problems with the API path', () => {
    expect(componentFieldProblem('pieceCount', 0, 2)).toBe(true);
    expect(componentFieldProblem('pieceCount', 2.5, 2)).toBe('pieceCount must be a whole number (orderComponents[2].pieceCount)');
    expect(componentFieldProblem('dimensions', { length: 48, width: 40, height: -1 }, 0)).toBe('height must be at least 1 in (orderComponents[0].dimensions.height)');
    expect(addressFieldProblem('state', 'Illinois', 'pickupAddress')).toBe('must be a 2-letter state code (pickupAddress.state)');
    expect(addressFieldProblem('name', '  ', 'deliveryAddress')).toBe('name is required (deliveryAddress.name)');
    expect(addressFieldProblem('address2', '', 'consignee')).toBe(true);
  });
});

describe('saved locations near the ZIP typed (issue 39, item 20)', () => {
  const DOCK_60608 = { ...CHICAGO_DOCK, name: 'Acme Chicago DC', address1: '2100 S Halsted St', zipCode: '60608' };
  const ATLANTA = { name: 'Peach Supply Co', address1: '1 Peachtree St', city: 'Atlanta', state: 'GA', zipCode: '30303', countryCode: 'US' as const };
  const rest = (shipFrom: Step, deliveryNearby: Step[] = []): Step[] => [
    step('Delivery ZIP', '30301'),
    ...deliveryNearby,
    step('Pickup date', ''),
    step('Accessorial', []),
    ...lineSteps('1', '500', '48x40x48'),
    step('Book this shipment', true),
    step('reference', ''),
    shipFrom,
    step('Ship to: company name', 'Store 9'),
    step('Ship to: street', '5 Main St'),
    step('street line 2', ''),
    step('Ship to: city', ''),
    step('Ship to: state', ''),
    step('contact name', ''),
    step('phone', ''),
    step('Save this address', ''),
    step('Add carrier details', false),
    step('Print the Bill of Lading', false),
  ];

  it('offers the dock at 60608 for a pickup typed as 60609 (same 3-digit prefix): chosen, the quote and the booking are from it', async () => {
    const h = harness([
      step('Pickup ZIP (origin) or saved location', '60609'),
      step(/^Pickup at 60609 \(Chicago, IL\), or at a saved location nearby\?$/, (choices) => {
        // The ZIP as typed first; the nearby dock; not Atlanta.
        expect(choices.map((choice) => choice.name)).toEqual(['60609 as typed', 'chicago-dc: Chicago, IL 60608']);
        return choices[1]!.value;
      }),
      ...rest(
        step('Ship from (Chicago, IL 60608)', (choices) => choices[0]!.value),
        [
          // Atlanta's saved store at 30303 is near the delivery ZIP 30301: offered, the ZIP as typed kept.
          step('Delivery at 30301 (Atlanta, GA), or at a saved location nearby?', (choices) => choices[0]!.value),
        ],
      ),
    ]);
    await h.book.save('chicago-dc', DOCK_60608);
    await h.book.save('atlanta', ATLANTA);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    expect(h.prompter.remaining).toBe(0);
    expect(result.quote.pickupAddress.zipCode).toBe('60608');
    expect(result.shipment!.pickupAddress).toMatchObject({ name: 'Acme Chicago DC', zipCode: '60608' });
  });

  it('takes a saved location by name at the ZIP prompt, and says "did you mean" for a mistyped one', async () => {
    const h = harness([step('Pickup ZIP', 'chicago-d'), step('Pickup ZIP', 'Chicago-DC'), ...rest(step('Ship from', (choices) => choices[0]!.value))]);
    await h.book.save('chicago-dc', DOCK_60608);
    const result = await runWizardFlow(h.deps, NO_DEFAULTS);
    expect(h.prompter.rejected).toEqual([
      {
        message: 'Pickup ZIP (origin) or saved location',
        value: 'chicago-d',
        reason: 'no saved location named chicago-d (did you mean chicago-dc?); a ZIP code is 5 digits, e.g. 60601 (pickupAddress.zipCode)',
      },
    ]);
    expect(result.quote.pickupAddress.zipCode).toBe('60608');
    expect(result.shipment!.pickupAddress).toMatchObject({ zipCode: '60608' });
  });

  it('offers nothing for a ZIP with no saved location in its city or prefix, nor for one at the very ZIP (the address step offers that one)', async () => {
    const h = harness([step('Pickup ZIP', '60609'), step('Delivery ZIP', '10001'), step('Pickup date', INTERRUPT)]);
    await h.book.save('atlanta', ATLANTA);
    await h.book.save('halsted', { ...DOCK_60608, zipCode: '60609' });
    await expect(runWizardFlow(h.deps, NO_DEFAULTS)).rejects.toThrow();
    // No "nearby?" question: after the pickup ZIP comes the delivery ZIP, then the date.
    expect(h.prompter.asked).toEqual(['Pickup ZIP (origin) or saved location', 'Delivery ZIP (destination) or saved location', expect.stringMatching(/^Pickup date/)]);
  });
});
