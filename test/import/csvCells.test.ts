import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { transitCsv } from '../../src/cli/commands/transit.js';
import { restoreFormulaCell, safeCsvOptions } from '../../src/csvCells.js';
import { rejectFileBom } from '../../src/import/rejectFile.js';
import type { TransitTable } from '../../src/domain/schemas.js';

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

/** What the importer reads back from a cell shipper wrote: csv-parse (trim, as the importer), then restoreFormulaCell. */
function roundTrip(cells: string[], delimiter = ','): string[] {
  const text = stringify([cells], safeCsvOptions(delimiter));
  const [parsed] = parse(text, { delimiter, trim: true, relax_column_count: true }) as string[][];
  return parsed!.map(restoreFormulaCell);
}

describe('formula cells in the CSVs shipper writes', () => {
  it('are written with a leading quote and quoted (OWASP), whatever the trigger', () => {
    for (const trigger of TRIGGERS) {
      const cell = `${trigger}HYPERLINK("http://x","y")`;
      const written = stringify([[cell]], safeCsvOptions());
      expect(written).toBe(`"'${cell.replace(/"/g, '""')}"\r\n`);
    }
    expect(stringify([['-5', '=1+2', '@SUM(A1)', 'plain', '']], safeCsvOptions())).toBe(`"'-5","'=1+2","'@SUM(A1)",plain,\r\n`);
  });

  it('leave every other cell alone: a quote, a minus or an equals sign later in the cell, outer blanks quoted', () => {
    expect(stringify([["O'Brien", 'a-b', 'x=y', '5', ' padded ', 'Müller GmbH']], safeCsvOptions(';'))).toBe(`O'Brien;a-b;x=y;5;" padded ";Müller GmbH\r\n`);
    expect(stringify([["'plain"]], safeCsvOptions())).toBe("'plain\r\n");
    expect(restoreFormulaCell("'plain")).toBe("'plain");
    expect(restoreFormulaCell("O'=x")).toBe("O'=x");
  });

  it('read back exactly as they were, also cells that start with quotes before a trigger', () => {
    const cells = ['-5', '=1+2', "'=1+2", "''-3", "'", "''", '+1 555 0100', '@home', '\tindented', '\rreturn', '\uFF1D1', "O'Brien", '-', '=', 'plain', ''];
    for (const delimiter of [',', ';', '\t']) expect(roundTrip(cells, delimiter)).toEqual(cells);
    // Every prefix of quotes before every trigger, on the boundary of the rule.
    for (const trigger of TRIGGERS) {
      for (let quotes = 0; quotes <= 3; quotes++) {
        const cell = `${"'".repeat(quotes)}${trigger}x`;
        expect(roundTrip([cell])).toEqual([cell]);
      }
    }
  });

  it('transit --csv: a place name from data cannot run as a formula, and the rest is as before', async () => {
    const place = { zipCode: '60601', countryCode: 'US', city: "=cmd|'/C calc'!A0", state: 'IL' };
    const table: TransitTable = {
      lanes: [
        {
          origin: place,
          destination: { ...place, city: 'New York', state: 'NY', zipCode: '10001', timeZone: 'America/New_York' },
          miles: 838,
          covered: true,
          rows: [
            {
              pickupDate: '2026-11-24',
              pickupAvailable: true,
              closedReason: null,
              transitDays: 3,
              deliveryDate: '2026-11-30',
              estimatedDeliveryDate: '2026-11-30T22:00:00.000Z',
              skippedDays: [],
            },
          ],
        },
      ],
    };
    const text = await transitCsv(table);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, row] = parse(text) as string[][];
    expect(header![1]).toBe('originCity');
    expect(row![1]).toBe("'=cmd|'/C calc'!A0");
    expect(row!.slice(7, 11)).toEqual(['838', 'true', '2026-11-24', 'true']);
    expect(row![11]).toBe('');
  });
});

describe('the reject file BOM', () => {
  it('is written when the input had one or was not UTF-8', () => {
    expect(rejectFileBom({ bom: true })).toBe(true);
    expect(rejectFileBom({ bom: false })).toBe(false);
    expect(rejectFileBom({ bom: false, encoding: 'utf8' })).toBe(false);
    expect(rejectFileBom({ bom: false, encoding: 'UTF-8' })).toBe(false);
    for (const encoding of ['windows-1252', 'utf16le', 'utf16be']) expect(rejectFileBom({ bom: false, encoding })).toBe(true);
  });
});
