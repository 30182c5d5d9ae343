/** `shipper transit --from ZIP --to ZIP... [--pickup-date D] [--days N] [--csv]`: transit days and ETAs per lane. */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { constraintViolation, ProblemError } from '../../api/problems.js';
import { MAX_TRANSIT_LANE_DAYS, MAX_TRANSIT_PICKUP_DAYS } from '../../domain/limits.js';
import type { TransitLane, TransitRequestInput, TransitRow, TransitTable } from '../../domain/schemas.js';
import { isZipCode } from '../../domain/zipCode.js';
import type { CommandContext } from '../context.js';
import { relativeDay, weekdayOf } from '../../domain/dates.js';
import { pickupDateFromFlag, todayAtOrigin } from '../pickupDateFlag.js';
import { CliError, UsageError } from '../errors.js';
import { formatDate, formatInstant, formatNumber, localIsoInstant, type IO } from '../output.js';
import type { ContextFactory } from '../context.js';
import { collect, wholeNumberOption } from '../optionParsers.js';
import type { ShipperCommand } from '../examples.js';
import { fitTable, type FitStep } from '../tableLayout.js';

export interface TransitOptions {
  from?: string;
  to: string[];
  pickupDate?: string;
  days: number;
  csv?: boolean;
}

/** A destination ZIP and where it was given, so an error can point at the file line. */
export interface ZipSource {
  zip: string;
  source: string;
  /** Why it is no ZIP code (a word in a file, "1000" in a list): known before anything is asked. */
  problem?: string;
}

/** A destination that got no lane, with why: a row of its own in every output. */
export interface BadDestination {
  /** `destinations[3].zipCode`: its place among the destinations given, from 0. */
  field: string;
  zipCode: string;
  /** `--to`, `zips.txt line 4`, `stdin line 2`. */
  source: string;
  /** `unknown ZIP 00000`, `"1000" is not a ZIP code`. */
  reason: string;
}

/** "unknown ZIP 00000 at zips.txt line 4" (a ZIP typed after --to needs no place). */
export const describeBadDestination = (bad: BadDestination): string => (bad.source === '--to' ? bad.reason : `${bad.reason} at ${bad.source}`);

/**
 * ZIPs from a text file or stdin: separated by newlines, commas, semicolons or blanks; `#` starts
 * a comment. A first line without any ZIP is a header (e.g. `zip`) and skipped.
 */
export function parseZipList(text: string, name: string): ZipSource[] {
  const zips: ZipSource[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((rawLine, index) => {
      const tokens = rawLine
        .replace(/#.*/, '')
        .split(/[\s,;]+/)
        .map((token) => token.replace(/^"(.*)"$/, '$1'))
        .filter(Boolean);
      if (index === 0 && tokens.length > 0 && !tokens.some((token) => isZipCode(token))) return;
      // A word that is no ZIP is a lane of its own that says so: one typo never hides the other lanes.
      for (const token of tokens) zips.push({ zip: token, source: `${name} line ${index + 1}`, ...(isZipCode(token) ? {} : { problem: `"${token}" is not a ZIP code` }) });
    });
  return zips;
}

/** Each --to value is a ZIP, a comma-separated list of ZIPs, a file of ZIPs, or - for stdin. */
export function resolveDestinations(values: string[], readText: (path: string) => string): ZipSource[] {
  const destinations: ZipSource[] = [];
  for (const value of values) {
    const parts = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (parts.length > 0 && parts.every((part) => isZipCode(part))) {
      destinations.push(...parts.map((zip) => ({ zip, source: '--to' })));
      continue;
    }
    let text: string;
    try {
      text = readText(value);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A list with a typo (10001,1000,30301): the good ZIPs get lanes, the typo a row saying why.
      if (code === 'ENOENT' && parts.length > 1 && parts.some((part) => isZipCode(part))) {
        destinations.push(...parts.map((zip) => ({ zip, source: '--to', ...(isZipCode(zip) ? {} : { problem: `"${zip}" is not a ZIP code` }) })));
        continue;
      }
      if (/^\d+$/.test(value)) throw new UsageError(`--to ${value} is not a ZIP code (5 digits)`);
      throw new UsageError(
        code === 'ENOENT' ? `--to ${value}: not a ZIP code and no such file` : `--to ${value}: cannot read it (${(error as Error).message})`,
        'give a ZIP (--to 10001), a list (--to 10001,30301), a file with one ZIP per line, or - for stdin',
      );
    }
    const zips = parseZipList(text, value === '-' ? 'stdin' : value);
    if (!zips.some((zip) => !zip.problem)) throw new UsageError(`--to ${value === '-' ? '-' : value}: no ZIP codes in it`);
    destinations.push(...zips);
  }
  return destinations;
}

const parsePickupDays = wholeNumberOption(1, MAX_TRANSIT_PICKUP_DAYS);

/** The API request the flags describe; --pickup-date may be written in words (today = at the origin). */
export function transitRequestFromOptions(options: TransitOptions, destinations: ZipSource[], today: string): TransitRequestInput {
  const pickupDate = pickupDateFromFlag(options.pickupDate, today);
  return {
    origin: { zipCode: options.from, countryCode: 'US' },
    destinations: destinations.map(({ zip }) => ({ zipCode: zip, countryCode: 'US' })),
    ...(pickupDate ? { pickupDate } : {}),
    pickupDays: options.days,
    // The ZIPs pass through as written: the API's schema judges them and names the field.
  } as TransitRequestInput;
}

/** A destination asked for, and its place among those given (the request holds only the good ones). */
interface Asked extends ZipSource {
  index: number;
}

/**
 * Violations about destinations[i] of the request name the destination's place among those given
 * and the file line it came from.
 */
function withSources(error: ProblemError, asked: Asked[]): ProblemError {
  const violations = error.problem.violations;
  if (!violations?.some((violation) => violation.field.startsWith('destinations['))) return error;
  return new ProblemError({
    ...error.problem,
    violations: violations.map((violation) => {
      const index = /^destinations\[(\d+)\]/.exec(violation.field)?.[1];
      const destination = index === undefined ? undefined : asked[Number(index)];
      if (!destination) return violation;
      const field = violation.field.replace(/^destinations\[\d+\]/, `destinations[${destination.index}]`);
      return { field, reason: destination.source !== '--to' ? `${violation.reason} at ${destination.source}` : violation.reason };
    }),
  });
}

/** When every violation is about one destination or another: why, by the request's index. */
function destinationViolations(error: ProblemError, count: number): Map<number, string> | undefined {
  const violations = error.problem.violations ?? [];
  const found = new Map<number, string>();
  for (const violation of violations) {
    const index = /^destinations\[(\d+)\]/.exec(violation.field)?.[1];
    if (index === undefined || Number(index) >= count) return undefined;
    if (!found.has(Number(index))) found.set(Number(index), violation.reason);
  }
  return found.size > 0 ? found : undefined;
}

/** How many times the lanes are asked for again without the destinations the answer refused. */
const MAX_RETRIES = 3;

/**
 * The lanes of the good destinations, and every bad one with why. A ZIP that is no ZIP is known
 * here; an unknown one only to the API, which refuses the whole request (400, a violation per
 * destination): those are dropped and the rest asked for again. The API stays as it is, in
 * both modes.
 */
export async function transitLanes(
  api: { transitTimes: (request: TransitRequestInput) => Promise<{ data: TransitTable }> },
  options: TransitOptions,
  destinations: ZipSource[],
  today: string,
): Promise<{ table: TransitTable; bad: BadDestination[]; asked: Asked[] }> {
  const bad: BadDestination[] = [];
  const refuse = (destination: Asked, reason: string) =>
    bad.push({ field: `destinations[${destination.index}].zipCode`, zipCode: destination.zip, source: destination.source, reason });
  let asked: Asked[] = [];
  destinations.forEach((destination, index) => {
    if (destination.problem) refuse({ ...destination, index }, destination.problem);
    else asked.push({ ...destination, index });
  });
  for (let attempt = 0; asked.length > 0; attempt++) {
    try {
      const { data: table } = await api.transitTimes(transitRequestFromOptions(options, asked, today));
      return { table, bad: bad.sort((a, b) => indexOf(a) - indexOf(b)), asked };
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      const refused = attempt < MAX_RETRIES ? destinationViolations(error, asked.length) : undefined;
      if (!refused) throw withSources(error, asked);
      for (const [index, message] of refused) refuse(asked[index]!, message);
      asked = asked.filter((_, index) => !refused.has(index));
    }
  }
  // No destination is good: nothing to show, a plain rejection (exit 1), every one named.
  bad.sort((a, b) => indexOf(a) - indexOf(b));
  throw constraintViolation(
    bad.map((destination) => ({ field: destination.field, reason: describeBadDestination(destination) })),
    bad.length === 1 ? undefined : `none of the ${bad.length} destinations is a known ZIP code`,
  );
}

const indexOf = (bad: BadDestination) => Number(/\[(\d+)\]/.exec(bad.field)![1]);

export async function runTransit(ctx: CommandContext, options: TransitOptions): Promise<void> {
  const missing = [!options.from && '--from ZIP', options.to.length === 0 && '--to ZIP'].filter(Boolean);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}`, 'example: shipper transit --from 60601 --to 10001 --to 30301');
  if (options.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  if (options.to.includes('-') && ctx.io.streams.stdin.isTTY) throw new UsageError('--to - reads ZIPs from stdin: pipe them in (e.g. cat zips.txt | shipper transit ...)');
  // - is the stdin main() was given, not fd 0 (main() runs in process in tests, with streams of its own).
  const stdinText = options.to.includes('-') ? await (await import('node:stream/consumers')).text(ctx.io.streams.stdin) : '';
  const destinations = resolveDestinations(options.to, (path) => (path === '-' ? stdinText : readFileSync(path, 'utf8')));
  const today = await todayAtOrigin(ctx, options.from);

  const { table, bad, asked } = await transitLanes(await ctx.api(), options, destinations, today);
  // Where each bad destination's row goes: after the lanes of the good ones given before it.
  const placed = bad.map((destination) => ({ destination, before: asked.filter((good) => good.index < indexOf(destination)).length }));
  if (ctx.io.options.json) ctx.io.json(bad.length > 0 ? { ...table, errors: bad } : table);
  else if (options.csv) ctx.io.streams.stdout.write(await transitCsv(table, placed));
  else printTransitTable(ctx.io, table, options.days, today, placed);
  if (bad.length > 0) {
    // Short enough for one line of a terminal: the output above says why, for each one.
    const shown = bad.slice(0, 3).map((destination) => destination.zipCode);
    const more = bad.length - shown.length;
    const count = `${formatNumber(bad.length)} of ${formatNumber(destinations.length)} destinations`;
    const why = ctx.io.options.json ? 'the errors list says why' : options.csv ? 'the error column says why' : 'their rows say why';
    throw new CliError(`${count} got no lane (${shown.join(', ')}${more > 0 ? ` and ${formatNumber(more)} more` : ''}): ${why}`, 'REJECTED', {
      jsonWritten: ctx.io.options.json,
    });
  }
}

// -----------------------------------------------------------------------------------------------
// Output

/** A closed day, short enough for a table cell: "Saturday", "Thanksgiving", "Christmas Day (observed)". */
export function shortClosedReason(date: string, reason: string): string {
  const weekday = weekdayOf(date);
  if (weekday === 0 || weekday === 6) return weekday === 0 ? 'Sunday' : 'Saturday';
  return reason.replace(/ \(carrier holiday\)$/, '').replace(/ \(observed, carrier holiday\)$/, ' (observed)');
}

/** "weekend", or the closed day's name: what transit days did not count between pickup and delivery. */
export function skippedSummary(row: TransitRow): string {
  const reasons: string[] = [];
  for (const day of row.skippedDays) {
    const weekday = weekdayOf(day.date);
    const reason = weekday === 0 || weekday === 6 ? 'weekend' : shortClosedReason(day.date, day.reason);
    if (!reasons.includes(reason)) reasons.push(reason);
  }
  return reasons.join(', ');
}

/** ZIP first: when the column is truncated the exact part survives. */
const placeLabel = (place: TransitLane['origin']) => `${place.zipCode} ${place.city}, ${place.state}`;

/** A bad destination and where its row goes: before the lane of this index (after every lane: lanes.length). */
export interface PlacedBadDestination {
  destination: BadDestination;
  before: number;
}

/** "unknown ZIP", "not a ZIP code": the reason without the ZIP, which its row shows already. */
function shortReason(bad: BadDestination): string {
  return bad.reason.replace(`"${bad.zipCode}" is `, '').replace(` ${bad.zipCode}`, '');
}

export function printTransitTable(io: IO, table: TransitTable, pickupDays: number, today?: string, bad: ReadonlyArray<PlacedBadDestination> = []): void {
  const c = io.color;
  const byDay = pickupDays > 1;
  const firstRows = table.lanes[0]?.rows ?? [];
  const firstPickup = firstRows.find((row) => row.pickupAvailable);
  if (!byDay && firstRows[0] && !firstRows[0].pickupAvailable && firstPickup) {
    io.note(`${formatDate(firstRows[0].pickupDate)} is ${firstRows[0].closedReason}: no pickup; showing pickup on ${formatDate(firstPickup.pickupDate)}`);
  }
  // One pickup day: the same for every lane, so it is said once above the table, not in a column.
  if (!byDay && firstPickup) {
    const relative = today ? relativeDay(firstPickup.pickupDate, today) : null;
    io.info(`Pickup ${formatDate(firstPickup.pickupDate)}${relative ? ` (${relative})` : ''}`);
  }
  const head = ['From', 'To', 'Miles', ...(byDay ? ['Pickup'] : []), 'Transit days', 'ETA at destination', ...(byDay ? ['Crosses'] : [])];
  const rows: string[][] = [];
  const laneStarts: number[] = [];
  const origin = table.lanes[0] ? placeLabel(table.lanes[0].origin) : '';
  // A destination without a lane is a row saying why, where it was in the list; its file line in the To cell.
  const badRows = (before: number) => {
    for (const { destination } of bad.filter((placed) => placed.before === before)) {
      laneStarts.push(rows.length);
      const line = /\b(line \d+)$/.exec(destination.source)?.[1];
      const to = line ? `${destination.zipCode} (${line})` : destination.zipCode;
      // A line of the file as it will be written (io.escaped): its control characters measured as their escapes.
      rows.push([origin, io.escaped(to), '', ...(byDay ? [''] : []), c.red('no lane'), io.escaped(shortReason(destination)), ...(byDay ? [''] : [])]);
    }
  };
  for (const [index, lane] of table.lanes.entries()) {
    badRows(index);
    laneStarts.push(rows.length);
    let first = true;
    for (const row of lane.rows) {
      if (!row.pickupAvailable && !byDay) continue;
      const laneCells = first ? [placeLabel(lane.origin), placeLabel(lane.destination), formatNumber(lane.miles)] : ['', '', ''];
      first = false;
      const pickupCell = byDay ? [row.pickupAvailable ? formatDate(row.pickupDate) : c.dim(formatDate(row.pickupDate))] : [];
      if (!row.pickupAvailable) {
        rows.push([...laneCells, ...pickupCell, c.dim('no pickup'), c.dim(shortClosedReason(row.pickupDate, row.closedReason ?? '')), '']);
      } else if (row.transitDays === null || row.estimatedDeliveryDate === null) {
        rows.push([...laneCells, ...pickupCell, c.yellow('no coverage'), '-', ...(byDay ? [''] : [])]);
      } else {
        rows.push([
          ...laneCells,
          ...pickupCell,
          String(row.transitDays),
          formatInstant(row.estimatedDeliveryDate, lane.destination.timeZone),
          ...(byDay ? [skippedSummary(row)] : []),
        ]);
      }
    }
  }
  badRows(table.lanes.length);
  // Only a terminal has a width; piped output keeps whole cells. The origin (the same on every
  // row) gives way first, then the destination, "Crosses", "Miles"; then the origin leaves the
  // table for a line above it, and the ETA's head shortens; the ETA itself is cut last.
  const [eta, crosses] = byDay ? [5, 6] : [4, -1];
  const etaCells = rows.map((row) => row[eta]!);
  const steps: FitStep[] = [
    { shrink: [0] },
    { shrink: [1] },
    ...(byDay ? [{ shrink: [crosses] }] : []),
    { drop: 2 },
    ...(byDay ? [{ drop: crosses }] : []),
    { drop: 0 },
    { replace: eta, cells: etaCells, head: 'ETA' },
    { shrink: [1], min: 8 },
    { shrink: [eta] },
  ];
  const fitted = io.isStdoutTTY ? fitTable(head, rows, io.terminalWidth, steps) : { head, rows, colWidths: undefined };
  if (fitted.head[0] !== 'From' && origin) io.info(`From ${origin}`);
  // One row per lane: no rules between rows; several days per lane: a rule between lanes.
  io.out(
    io.table(fitted.head, fitted.rows, {
      compact: true,
      ruleBefore: byDay ? laneStarts : [],
      ...(fitted.colWidths ? { colWidths: fitted.colWidths } : {}),
    }),
  );
}

const CSV_COLUMNS = [
  'originPostalCode',
  'originCity',
  'originState',
  'destinationPostalCode',
  'destinationCity',
  'destinationState',
  'destinationTimeZone',
  'miles',
  'covered',
  'pickupDate',
  'pickupAvailable',
  'closedReason',
  'transitDays',
  'deliveryDate',
  'estimatedDeliveryDate',
  'estimatedDeliveryLocal',
  'skippedDays',
  'error',
] as const;

/**
 * RFC 4180 CSV, one line per lane and calendar day (closed days included, flagged), and one per
 * destination without a lane (the reason in `error`), written by
 * csv-stringify with formula cells neutralised (src/csvCells.ts), like every CSV shipper writes.
 * Loaded only for --csv.
 */
export async function transitCsv(table: TransitTable, bad: ReadonlyArray<PlacedBadDestination> = []): Promise<string> {
  const [{ stringify }, { safeCsvOptions }] = await Promise.all([import('csv-stringify/sync'), import('../../csvCells.js')]);
  type Cell = string | number | boolean | null;
  const records: Cell[][] = [];
  const origin = table.lanes[0]?.origin;
  // A destination without a lane: one line with what is known of it and the reason in `error`.
  const badRecords = (before: number) => {
    for (const { destination } of bad.filter((placed) => placed.before === before)) {
      const record: Partial<Record<(typeof CSV_COLUMNS)[number], Cell>> = {
        originPostalCode: origin?.zipCode ?? null,
        originCity: origin?.city ?? null,
        originState: origin?.state ?? null,
        destinationPostalCode: destination.zipCode,
        error: describeBadDestination(destination),
      };
      records.push(CSV_COLUMNS.map((column) => record[column] ?? null));
    }
  };
  for (const [index, lane] of table.lanes.entries()) {
    badRecords(index);
    for (const row of lane.rows) {
      const record: Record<(typeof CSV_COLUMNS)[number], Cell> = {
        originPostalCode: lane.origin.zipCode,
        originCity: lane.origin.city,
        originState: lane.origin.state,
        destinationPostalCode: lane.destination.zipCode,
        destinationCity: lane.destination.city,
        destinationState: lane.destination.state,
        destinationTimeZone: lane.destination.timeZone,
        miles: lane.miles,
        covered: lane.covered,
        pickupDate: row.pickupDate,
        pickupAvailable: row.pickupAvailable,
        closedReason: row.closedReason,
        transitDays: row.transitDays,
        deliveryDate: row.deliveryDate,
        estimatedDeliveryDate: row.estimatedDeliveryDate,
        estimatedDeliveryLocal: row.estimatedDeliveryDate ? localIsoInstant(row.estimatedDeliveryDate, lane.destination.timeZone) : null,
        skippedDays: row.skippedDays.map((day) => day.date).join('|'),
        error: null,
      };
      records.push(CSV_COLUMNS.map((column) => record[column]));
    }
  }
  badRecords(table.lanes.length);
  return stringify([[...CSV_COLUMNS], ...records], safeCsvOptions(','));
}

export function registerTransitCommands(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('transit')
    .description('table of transit days and ETAs (destination local time) from one origin to one or more destinations')
    .option('--from <zip>', 'origin ZIP code')
    .option('--to <zip|file>', 'destination ZIP, comma-separated ZIPs, a file of ZIPs (one per line) or - for stdin; repeat for more', collect, [])
    .option('--pickup-date <date>', 'first pickup date: YYYY-MM-DD or words (tomorrow, friday, +3, 11/27); default the next business day')
    .option(
      '--days <n>',
      `show the next N pickup (business) days per lane, with the closed days between (1-${MAX_TRANSIT_PICKUP_DAYS}; at most ${MAX_TRANSIT_LANE_DAYS.toLocaleString('en-US')} lanes x days per request)`,
      parsePickupDays,
      1,
    )
    .option('--csv', 'CSV on stdout (one line per lane and day) for spreadsheets and scripts')
    .examples(
      'shipper transit --from 60601 --to 10001 --to 30301 --to 99501',
      'shipper transit --from 60601 --to zips.txt --pickup-date friday',
      'shipper transit --from 60601 --to 10001 --pickup-date 2026-11-23 --days 5   (how Thanksgiving moves the ETA)',
      'shipper transit --from 60601 --to 10001,94105 --json',
      'cut -d, -f3 customers.csv | shipper transit --from 60601 --to - --csv > transit.csv',
    )
    .action(async (options: TransitOptions, command: Command) => runTransit(context(command), options));
}
