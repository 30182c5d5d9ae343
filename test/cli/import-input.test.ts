/**
 * Issue 20, items 13 and 15, through the CLI (main() in process): a file whose rows of a shipment were put in
 * another order imports again as the same shipment; a raw `="02134"` cell is read; a CSV parse
 * error names the column by its header, never csv-parse's field number.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Shipment } from '../../src/domain/schemas.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { csvLine, HEADER, rowCells } from '../helpers/csv.js';
import { WEDNESDAY } from '../helpers/fixtures.js';
import { storeInProcess } from '../helpers/inProcess.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-import-input-'));
});
afterAll(() => cleanup());

function storeNamed(name: string) {
  const run = storeInProcess(join(dir, name));
  return (args: string[]): Promise<CliResult> => run(args, { env: { SHIPPER_NOW: WEDNESDAY }, cwd: dir });
}

async function csvFile(name: string, rows: string[][]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `${[HEADER, ...rows].map((cells) => csvLine(cells)).join('\n')}\n`);
  return path;
}

describe('re-importing a file whose rows of a shipment are swapped (item 13)', () => {
  // Every row carries the addresses, as many ERP exports write them.
  const first = rowCells('PO-13', true, { weight: '500', desc: 'Bearings' });
  const second = rowCells('PO-13', true, { weight: '800', desc: 'Gears', pieces: '9' });

  it('recognises the shipment booked the first time: already booked, nothing new', async () => {
    const cli = storeNamed('swapped');
    const booked = await cli(['import', await csvFile('in-order.csv', [first, second]), '--json']);
    expect(booked.code, booked.stderr).toBe(0);
    expect(JSON.parse(booked.stdout).summary).toMatchObject({ booked: 1, alreadyBooked: 0 });

    const again = await cli(['import', await csvFile('swapped.csv', [second, first]), '--json']);
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(again.stdout).not.toMatch(/other data/);
    expect(JSON.parse(again.stdout).summary).toMatchObject({ booked: 0, alreadyBooked: 1, rejectedShipments: 0 });

    const list = JSON.parse((await cli(['shipment', 'list', '--json'])).stdout) as Page<Shipment>;
    expect(list.items).toHaveLength(1);
    // The shipment keeps the lines in the order they were booked.
    expect(list.items[0]!.orderComponents.map((component) => component.description)).toEqual(['Bearings', 'Gears']);
  });

  it('a line that changed is still refused, not taken for the same shipment (the boundary)', async () => {
    const cli = storeNamed('changed');
    expect((await cli(['import', await csvFile('before.csv', [first, second])])).code).toBe(0);
    const changed = rowCells('PO-13', true, { weight: '801', desc: 'Gears', pieces: '9' });
    const result = await cli(['import', await csvFile('after.csv', [changed, first])]);
    // Another shipment under the same reference: refused as a duplicate reference, never booked silently.
    expect(result.code).toBe(1);
    const list = JSON.parse((await cli(['shipment', 'list', '--json'])).stdout) as Page<Shipment>;
    expect(list.items).toHaveLength(1);
  });
});

describe('raw ="..." cells and parse errors (item 15)', () => {
  it('reads an unquoted ="02134" cell as 02134', async () => {
    const cli = storeNamed('text-cells');
    const cells = rowCells('PO-15', true);
    const zipColumn = HEADER.indexOf('consigneePostalCode');
    const line = [...cells.slice(0, zipColumn), '="02134"', ...cells.slice(zipColumn + 1)];
    line[HEADER.indexOf('consigneeCity')] = 'Boston';
    line[HEADER.indexOf('consigneeState')] = 'MA';
    line[HEADER.indexOf('refNumber')] = '="00715"';
    const path = join(dir, 'raw-text-cells.csv');
    // Written by hand: csvLine would quote the cell.
    await writeFile(path, `${HEADER.join(',')}\n${line.join(',')}\n`);
    const result = await cli(['import', path, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const [shipment] = (JSON.parse((await cli(['shipment', 'list', '--json'])).stdout) as Page<Shipment>).items;
    expect(shipment!.deliveryAddress.zipCode).toBe('02134');
    expect(shipment!.refNumber).toBe('00715');
  });

  it('a quote never closed names the line and the column by its header, not a field number', async () => {
    const cli = storeNamed('broken');
    const cells = rowCells('PO-16', true);
    cells[HEADER.indexOf('consigneeCity')] = '"New York';
    const path = join(dir, 'unclosed.csv');
    await writeFile(path, `${HEADER.join(',')}\n${csvLine(rowCells('PO-15', true))}\n${cells.join(',')}\n`);
    const result = await cli(['import', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/line 3, column consigneeCity: a quoted value is never closed/);
    expect(result.stderr).not.toMatch(/field \d|Quote Not Closed/);
  });

  it('text after a closing quote names its column too', async () => {
    const cli = storeNamed('after-quote');
    const cells = rowCells('PO-17', true);
    cells[HEADER.indexOf('description')] = '"Machine"parts';
    const path = join(dir, 'after-quote.csv');
    await writeFile(path, `${HEADER.join(',')}\n${cells.join(',')}\n`);
    const result = await cli(['import', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/line 2, column description: text right after a closing quote/);
    expect(result.stderr).not.toMatch(/field \d/);
  });
});
