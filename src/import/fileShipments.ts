/**
 * The shipments of an import file as a pass reads them: rows grouped, each group prepared into a
 * request (saved locations resolved), keyed for idempotency, and given the import's reference
 * policy; a shipment whose rows are split across the file refused whole. Both passes of an import
 * read a file this way (the booking's only when the check kept nothing: importer.ts).
 */
import { hash } from 'node:crypto';
import { setMember } from '../domain/canonicalJson.js';
import type { CsvReading } from './csvFile.js';
import type { CsvHeader } from './columns.js';
import { DigestTable } from './digestTable.js';
import { importKeyOf } from './importKey.js';
import type { RowGroup } from './rows.js';
import { groupKeyOf, groupRows, prepareShipment, type CellContext, type LocationResolver, type PreparedShipment } from './shipmentRows.js';

/** A shipment of the file: as prepared, and (when valid) its idempotency key and the request sent to the API. */
export interface FileShipment {
  prepared: PreparedShipment;
  key: string | undefined;
  request: Record<string, unknown> | undefined;
}

export interface FileShipmentsOptions {
  locations: LocationResolver;
  cells: CellContext;
  /** Book shipments whose refNumber a booked shipment has (WARN), else refuse them (REFUSE). */
  allowDuplicateRef: boolean;
  /** How many shipments of each content the file has had so far (the second identical order is `#2`). */
  occurrences: DigestTable;
  /** Grouping keys found split so far; added to as more are found. */
  splitKeys: Set<string>;
  /** The booking pass: the check found `splitKeys` already (its messages name no earlier lines). */
  booking: boolean;
}

export async function* fileShipments(reading: CsvReading, options: FileShipmentsOptions): AsyncGenerator<FileShipment> {
  const { header } = reading;
  // Each grouping key seen, by digest, with the first and last line of its first rows.
  const groupLines = new DigestTable(2);
  // Which resolved addresses came from which saved location, so an order is recognised by what the file says.
  const locationNames = new WeakMap<object, string>();
  const locations: LocationResolver = {
    async resolve(name) {
      const address = await options.locations.resolve(name);
      if (!address) return address;
      // A copy of its own (the name is known by it), keyed in sorted order as the file's addresses are (importKey.ts).
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(address).sort()) setMember(copy, key, address[key]);
      locationNames.set(copy, name.toLowerCase());
      return copy;
    },
  };
  for await (const group of groupRows(reading.rows, header)) {
    const split = splitShipment(group, header, groupLines, options);
    const prepared = split ?? (await prepareShipment(group, header, locations, options.cells));
    yield prepared.ok
      ? {
          prepared,
          key: importKeyOf(prepared.request, options.occurrences, locationNames),
          // A reference that a booked shipment already has is refused unless --allow-duplicate-ref.
          request: { ...prepared.request, duplicateRefNumber: options.allowDuplicateRef ? 'WARN' : 'REFUSE' },
        }
      : { prepared, key: undefined, request: undefined };
  }
}

/**
 * Rows of one shipment that are not next to each other (a sheet sorted by SKU) would become two
 * shipments with the same reference: refused, naming the lines, never guessed. The check refuses
 * the rows that come back; the booking refuses every row of such a shipment, so no part of it is
 * booked. Memory holds one key and one line range per shipment, not its rows.
 */
function splitShipment(group: RowGroup, header: CsvHeader, groupLines: DigestTable, options: FileShipmentsOptions): PreparedShipment | undefined {
  const { splitKeys } = options;
  const first = group.rows[0]!;
  const key = groupKeyOf(first, header);
  if (key === null) return undefined;
  const linesOf = (from: number, to: number) => (from === to ? `line ${from}` : `lines ${from}-${to}`);
  const lines = linesOf(first.line, group.rows.at(-1)!.line);
  const digest = hash('sha256', key, 'buffer');
  const seen = groupLines.get(digest);
  const earlier = seen ? linesOf(seen[0]!, seen[1]!) : undefined;
  if (earlier === undefined && !splitKeys.has(key)) {
    groupLines.set(digest, [first.line, group.rows.at(-1)!.line]);
    return undefined;
  }
  splitKeys.add(key);
  const what = key.startsWith('k\u0000') ? `shipmentKey ${key.slice(2)}` : `refNumber ${key.slice(2)}`;
  const column = key.startsWith('k\u0000') ? 'shipmentKey' : 'refNumber';
  const message =
    earlier !== undefined && !options.booking
      ? `the rows of ${what} are not next to each other (${earlier}, then ${lines}): sort the file by ${column} so that each shipment's rows follow one another; nothing of this shipment was booked`
      : `the rows of ${what} are not next to each other in the file: sort it by ${column}; nothing of this shipment was booked`;
  return {
    ok: false,
    group,
    warnings: [],
    violations: [{ line: first.line, column: header.cells[header.positions.get(column) ?? -1]?.trim() ?? column, field: column, reason: message }],
  };
}
