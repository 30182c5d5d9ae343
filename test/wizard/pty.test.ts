/**
 * The wizard end to end: the built binary in a real pseudo-terminal (@lydell/node-pty), typed at like a
 * person would. Fixed clock: Mon 2026-10-05 10:00 in Chicago, so the default pickup is Tue 2026-10-06.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shipmentSchema } from '../../src/domain/schemas.js';
import { FileStore } from '../../src/store/file/fileStore.js';
import { LocationBook } from '../../src/store/locations.js';
import { tempDir } from '../helpers/cli.js';
import { KEY, spawnCliInPty, type PtySession } from '../helpers/pty.js';
import { storedShipment, storedShipmentIds } from '../helpers/storedShipments.js';

const ENV = { SHIPPER_NOW: '2026-10-05T15:00:00Z' };

let dir: string;
let store: string;
let cleanup: () => Promise<void>;
let session: PtySession | undefined;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('shipper-pty-'));
  store = join(dir, 'store');
  await new LocationBook(new FileStore(store).locations).save('chicago-dock', {
    name: 'Acme Machine Co',
    address1: '100 N State St',
    city: 'Chicago',
    state: 'IL',
    zipCode: '60601',
    countryCode: 'US',
  });
});

afterEach(async () => {
  session?.kill();
  session = undefined;
  await cleanup();
});

function wizard(flags: string[] = [], env: Record<string, string> = {}): PtySession {
  session = spawnCliInPty(['--store', store, ...flags, 'quote'], { cwd: dir, env: { ...ENV, ...env } });
  return session;
}

/** Every file under the store with its contents: "unchanged" means this is equal before and after. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files[relative(root, path)] = await readFile(path, 'utf8');
    }
  };
  await walk(root);
  return files;
}

async function ids(collection: string): Promise<string[]> {
  return (await readdir(join(store, collection)).catch(() => [] as string[])).filter((name) => !name.startsWith('.'));
}

async function oneLine(pty: PtySession, answers: { pallets: string; weight: string; dims: string; desc: string; pkg?: string; pieces?: string }) {
  await pty.answer(/Line \d: pallets/, answers.pallets);
  await pty.answer('total weight', answers.weight);
  await pty.answer('dimensions of one pallet', answers.dims);
  await pty.answer('description (optional)', answers.desc);
  await pty.answer('NMFC code (optional)', '');
  await pty.answer('packaging', answers.pkg ?? '');
  await pty.answer('loose pieces', answers.pieces ?? '');
  await pty.answer('stackable?', '');
}

describe('quote wizard in a terminal', () => {
  it('quotes two lines, books them and prints the BOL', async () => {
    const pty = wizard();
    await pty.answer('Pickup ZIP (origin)', '60601');
    await pty.waitFor('Chicago, IL');
    await pty.answer('Delivery ZIP (destination)', '30301');
    await pty.waitFor('Atlanta, GA');
    await pty.answer('Pickup date', ''); // the default: the next business day
    await pty.waitFor('Accessorial services');
    pty.type(KEY.down); // LIFTGATE_PICKUP -> LIFTGATE_DELIVERY
    pty.type(KEY.space);
    pty.type(KEY.enter);
    await oneLine(pty, { pallets: '2', weight: '1200', dims: '48x40x48', desc: 'Machine parts', pkg: 'crates', pieces: '10' });
    await pty.answer('Add another line?', 'y');
    await oneLine(pty, { pallets: '1', weight: '300', dims: '40x48x60', desc: 'Spare belts' });
    await pty.answer('Add another line?', 'n');
    await pty.waitFor(/Total\s+\$[\d,]+\.\d\d/);
    await pty.answer('Book this shipment', 'y');
    await pty.answer('Your reference', 'PO-4471');
    await pty.waitFor('Ship from (Chicago, IL 60601)');
    await pty.waitFor('chicago-dock: Acme Machine Co'); // the saved location on the origin ZIP is offered
    pty.type(KEY.enter); // take it
    await pty.answer('Ship to: company name', 'Peach Supply Co');
    await pty.answer('Ship to: street', '1 Peachtree St NE');
    await pty.answer('street line 2', '');
    await pty.answer('Ship to: city', '');
    await pty.answer('Ship to: state', '');
    await pty.answer('contact name', '');
    await pty.answer('phone', '');
    await pty.answer('Save this address', '');
    // The default (Enter) books without the carrier step.
    await pty.answer('Add carrier details', '');
    await pty.waitFor(/Booked SO-\d+/);
    await pty.answer('Print the Bill of Lading', '');
    // A template is asked only when the renderer offers several.
    const next = await pty.waitFor(/BOL template|Save the PDF as/);
    if (next === 'BOL template') {
      pty.type(KEY.enter); // the default template, standard
      await pty.answer('Save the PDF as', '');
    } else {
      pty.type(KEY.enter); // the default file name
    }

    const code = await pty.exitCode;
    const [shipmentId] = await storedShipmentIds(store);
    expect(shipmentId).toBeDefined();
    const shipment = shipmentSchema.parse(await storedShipment(store, shipmentId!));
    expect(shipment.refNumber).toBe('PO-4471');
    expect(shipment.pickupAddress.name).toBe('Acme Machine Co');
    expect(shipment.deliveryAddress).toMatchObject({ name: 'Peach Supply Co', city: 'Atlanta', state: 'GA' });
    expect(shipment.accessorials).toEqual(['LIFTGATE_DELIVERY']);
    expect(shipment.orderComponents.map((line) => [line.palletCount, line.description, line.freightClass])).toEqual([
      [2, 'Machine parts', '92.5'],
      [1, 'Spare belts', '175'],
    ]);
    // The BOL: a real PDF file next to where the wizard ran (needs the BOL renderer).
    const pdfPath = join(dir, `BOL-${shipment.orderNumber}.pdf`);
    expect(pty.output()).toContain(`Wrote BOL-${shipment.orderNumber}.pdf`);
    expect(code).toBe(0);
    expect((await readFile(pdfPath)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await stat(pdfPath)).size).toBeGreaterThan(1000);
  });

  it('refuses an invalid ZIP at the prompt and takes the corrected one', async () => {
    const pty = wizard();
    await pty.answer('Pickup ZIP (origin)', '00000');
    await pty.waitFor('unknown ZIP 00000 (pickupAddress.zipCode)');
    pty.type(KEY.backspace.repeat(5));
    pty.type('60601');
    await pty.waitFor('Chicago, IL');
    pty.type(KEY.enter);
    await pty.answer('Delivery ZIP (destination)', '10001');
    await pty.answer('Pickup date', '');
    await pty.answer('Accessorial services', '');
    await oneLine(pty, { pallets: '1', weight: '500', dims: '48x40x40', desc: '' });
    await pty.answer('Add another line?', '');
    await pty.answer('Book this shipment', 'n');
    expect(await pty.exitCode).toBe(0);

    // Quotes are lines of bucket logs in quotes/.
    const buckets = await ids('quotes');
    const lines = (await Promise.all(buckets.map((name) => readFile(join(store, 'quotes', name), 'utf8')))).join('').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const { q: quote } = JSON.parse(lines[0]!) as { q: { pickupAddress: { zipCode: string; city: string } } };
    expect(quote.pickupAddress).toMatchObject({ zipCode: '60601', city: 'Chicago' });
    expect(await storedShipmentIds(store)).toEqual([]);
  });

  it('Ctrl-C mid-way exits cleanly and leaves the store unchanged', async () => {
    const before = await snapshot(store);
    const pty = wizard();
    await pty.answer('Pickup ZIP (origin)', '60601');
    await pty.answer('Delivery ZIP (destination)', '30301');
    await pty.answer('Pickup date', '');
    await pty.answer('Accessorial services', '');
    await pty.answer(/Line 1: pallets/, '2');
    await pty.waitFor('total weight');
    pty.type('12');
    pty.type(KEY.ctrlC);
    await pty.waitFor('cancelled; nothing was written');
    expect(await pty.exitCode).toBe(130);
    expect(pty.output()).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(await snapshot(store)).toEqual(before);
  });

  it('colours prompts on a terminal, but not with --no-color or NO_COLOR', async () => {
    const SGR = /\u001b\[[0-9;]*m/;
    for (const [flags, env, coloured] of [
      [[], {}, true],
      [['--no-color'], {}, false],
      [[], { NO_COLOR: '1' }, false],
    ] as Array<[string[], Record<string, string>, boolean]>) {
      const pty = wizard(flags, env);
      await pty.answer('Pickup ZIP (origin)', '60601');
      await pty.waitFor('Delivery ZIP');
      pty.type(KEY.ctrlC);
      expect(await pty.exitCode).toBe(130);
      expect({ flags, env, coloured: SGR.test(pty.raw()) }).toEqual({ flags, env, coloured });
    }
  });
});
