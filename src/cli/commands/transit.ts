/** `shipper transit --from ZIP --to ZIP... [--pickup-date D] [--days N] [--csv]`: transit days and ETAs per lane. */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import { ProblemError } from '../../api/problems.js';
import { MAX_TRANSIT_LANE_DAYS, MAX_TRANSIT_PICKUP_DAYS } from '../../domain/limits.js';
import type { TransitLane, TransitRequestInput, TransitRow, TransitTable } from '../../domain/schemas.js';
import type { CommandContext } from '../context.js';
import { relativeDay, weekdayOf } from '../dates.js';
import { pickupDateFromFlag, todayAtOrigin } from '../pickupDateFlag.js';
import { UsageError } from '../errors.js';
import { formatDate, formatInstant, formatNumber, type IO } from '../output.js';
import type { ContextFactory } from '../context.js';
import { collect } from '../optionParsers.js';
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
}

const ZIP = /^\d{5}(?:-?\d{4})?$/;

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
      if (index === 0 && tokens.length > 0 && !tokens.some((token) => ZIP.test(token))) return;
      for (const token of tokens) {
        if (!ZIP.test(token)) throw new UsageError(`${name} line ${index + 1}: "${token}" is not a ZIP code`, 'one 5-digit ZIP per line, or separated by commas');
        zips.push({ zip: token, source: `${name} line ${index + 1}` });
      }
    });
  return zips;
}

/** Each --to value is a ZIP, a comma-separated list of ZIPs, a file of ZIPs, or - for stdin. */
export function resolveDestinations(values: string[], readText: (path: string) => string): ZipSource[] {
  const destinations: ZipSource[] = [];
  for (const value of values) {
    const parts = value.split(',').map((part) => part.trim()).filter(Boolean);
    if (parts.length > 0 && parts.every((part) => ZIP.test(part))) {
      destinations.push(...parts.map((zip) => ({ zip, source: '--to' })));
      continue;
    }
    let text: string;
    try {
      text = readText(value);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (/^\d+$/.test(value)) throw new UsageError(`--to ${value} is not a ZIP code (5 digits)`);
      throw new UsageError(
        code === 'ENOENT' ? `--to ${value}: not a ZIP code and no such file` : `--to ${value}: cannot read it (${(error as Error).message})`,
        'give a ZIP (--to 10001), a list (--to 10001,30301), a file with one ZIP per line, or - for stdin',
      );
    }
    const zips = parseZipList(text, value === '-' ? 'stdin' : value);
    if (zips.length === 0) throw new UsageError(`--to ${value === '-' ? '-' : value}: no ZIP codes in it`);
    destinations.push(...zips);
  }
  return destinations;
}

export function parsePickupDays(value: string): number {
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > MAX_TRANSIT_PICKUP_DAYS) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_TRANSIT_PICKUP_DAYS}`);
  }
  return days;
}

/** The API request the flags describe; --pickup-date may be written in words (today = at the origin). */
export function transitRequestFromOptions(options: TransitOptions, destinations: ZipSource[], today: string): TransitRequestInput {
  const pickupDate = pickupDateFromFlag(options.pickupDate, today);
  return {
    origin: { postalCode: options.from, countryCode: 'US' },
    destinations: destinations.map(({ zip }) => ({ postalCode: zip, countryCode: 'US' })),
    ...(pickupDate ? { pickupDate } : {}),
    pickupDays: options.days,
    // The ZIPs pass through as written: the API's schema judges them and names the field.
  } as TransitRequestInput;
}

/** Violations about destinations[i] also name the file line the ZIP came from. */
function withSources(error: ProblemError, destinations: ZipSource[]): ProblemError {
  const violations = error.problem.violations;
  if (!violations?.some((violation) => violation.field.startsWith('destinations['))) return error;
  return new ProblemError({
    ...error.problem,
    violations: violations.map((violation) => {
      const index = /^destinations\[(\d+)\]/.exec(violation.field)?.[1];
      const source = index === undefined ? undefined : destinations[Number(index)]?.source;
      return source && source !== '--to' ? { ...violation, message: `${violation.message} at ${source}` } : violation;
    }),
  });
}

export async function runTransit(ctx: CommandContext, options: TransitOptions): Promise<void> {
  const missing = [!options.from && '--from ZIP', options.to.length === 0 && '--to ZIP'].filter(Boolean);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}`, 'example: shipper transit --from 60601 --to 10001 --to 30301');
  if (options.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  if (options.to.includes('-') && ctx.io.streams.stdin.isTTY) throw new UsageError('--to - reads ZIPs from stdin: pipe them in (e.g. cat zips.txt | shipper transit ...)');
  // - is the stdin main() was given, not fd 0 (main() runs in process in tests, with streams of its own).
  const stdinText = options.to.includes('-') ? await (await import('node:stream/consumers')).text(ctx.io.streams.stdin) : '';
  const destinations = resolveDestinations(options.to, (path) => (path === '-' ? stdinText : readFileSync(path, 'utf8')));
  const today = await todayAtOrigin(ctx, options.from);
  const request = transitRequestFromOptions(options, destinations, today);

  const api = await ctx.api();
  let table: TransitTable;
  try {
    ({ data: table } = await api.transitTimes(request));
  } catch (error) {
    throw error instanceof ProblemError ? withSources(error, destinations) : error;
  }
  if (ctx.io.options.json) return ctx.io.json(table);
  if (options.csv) {
    ctx.io.streams.stdout.write(await transitCsv(table));
    return;
  }
  printTransitTable(ctx.io, table, options.days, today);
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
const placeLabel = (place: TransitLane['origin']) => `${place.postalCode} ${place.city}, ${place.state}`;

export function printTransitTable(io: IO, table: TransitTable, pickupDays: number, today?: string): void {
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
  for (const lane of table.lanes) {
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
  // Only a terminal has a width; piped output keeps whole cells. The origin (the same on every
  // row) gives way first, then the destination, "Crosses", "Miles"; the ETA last.
  const [eta, crosses] = byDay ? [5, 6] : [4, -1];
  const steps: FitStep[] = byDay
    ? [{ shrink: [0] }, { shrink: [1] }, { shrink: [crosses] }, { drop: 2 }, { drop: crosses }, { shrink: [eta] }]
    : [{ shrink: [0] }, { shrink: [1] }, { drop: 2 }, { shrink: [eta] }];
  const fitted = io.isStdoutTTY ? fitTable(head, rows, io.terminalWidth, steps) : { head, rows, colWidths: undefined };
  // One row per lane: no rules between rows; several days per lane: a rule between lanes.
  io.out(
    io.table(fitted.head, fitted.rows, {
      compact: true,
      ruleBefore: byDay ? laneStarts : [],
      ...(fitted.colWidths ? { colWidths: fitted.colWidths } : {}),
    }),
  );
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-30T17:00:00-05:00": the ETA as a local time with its offset, for scripts. */
export function localIsoInstant(iso: string, timeZone: string): string {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    offsetFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
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
] as const;

/**
 * RFC 4180 CSV, one line per lane and calendar day (closed days included, flagged), written by
 * csv-stringify with formula cells neutralised (src/csvCells.ts), like every CSV shipper writes.
 * Loaded only for --csv.
 */
export async function transitCsv(table: TransitTable): Promise<string> {
  const [{ stringify }, { safeCsvOptions }] = await Promise.all([import('csv-stringify/sync'), import('../../csvCells.js')]);
  const records: Array<Array<string | number | boolean | null>> = [];
  for (const lane of table.lanes) {
    for (const row of lane.rows) {
      const record: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null> = {
        originPostalCode: lane.origin.postalCode,
        originCity: lane.origin.city,
        originState: lane.origin.state,
        destinationPostalCode: lane.destination.postalCode,
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
      };
      records.push(CSV_COLUMNS.map((column) => record[column]));
    }
  }
  return stringify([[...CSV_COLUMNS], ...records], safeCsvOptions(','));
}

export function registerTransitCommands(program: Command, context: ContextFactory): void {
  program
    .command('transit')
    .description('table of transit days and ETAs (destination local time) from one origin to one or more destinations')
    .option('--from <zip>', 'origin ZIP code')
    .option('--to <zip|file>', 'destination ZIP, comma-separated ZIPs, a file of ZIPs (one per line) or - for stdin; repeat for more', collect, [])
    .option('--pickup-date <date>', 'first pickup date: YYYY-MM-DD or words (tomorrow, friday, +3, 11/27); default the next business day')
    .option('--days <n>', `show the next N pickup (business) days per lane, with the closed days between (1-${MAX_TRANSIT_PICKUP_DAYS}; at most ${MAX_TRANSIT_LANE_DAYS.toLocaleString('en-US')} lanes x days per request)`, parsePickupDays, 1)
    .option('--csv', 'CSV on stdout (one line per lane and day) for spreadsheets and scripts')
    .addHelpText(
      'after',
      `
Examples:
  $ shipper transit --from 60601 --to 10001 --to 30301 --to 99501
  $ shipper transit --from 60601 --to zips.txt --pickup-date friday
  $ shipper transit --from 60601 --to 10001 --pickup-date 2026-11-23 --days 5   (how Thanksgiving moves the ETA)
  $ shipper transit --from 60601 --to 10001,94105 --json
  $ cut -d, -f3 customers.csv | shipper transit --from 60601 --to - --csv > transit.csv`,
    )
    .action(async (options: TransitOptions, command: Command) => runTransit(context(command), options));
}
