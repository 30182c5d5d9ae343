/**
 * The CLI's IO layer (after the GitHub CLI's iostreams): knows whether stdout/stderr are
 * terminals and whether colour is allowed, and owns every way a command writes: JSON for scripts,
 * tables and colour for people, warnings and errors on stderr. Commands never touch process.stdout.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { printable } from '../printable.js';
import { fitTable, type FitStep } from './tableLayout.js';
import { describeWarning, type Warning } from '../domain/warnings.js';
import { formatDate, tabulatedWallClock } from '../domain/dates.js';

export interface IOStreams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface IOOptions {
  json: boolean;
  color: boolean;
  quiet: boolean;
}

export class IO {
  readonly color: ChalkInstance;
  readonly errColor: ChalkInstance;

  constructor(
    readonly streams: IOStreams,
    readonly options: IOOptions,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    // Colour only on a terminal, never with NO_COLOR (any value) or --no-color.
    const colorAllowed = options.color && !('NO_COLOR' in env && env.NO_COLOR !== undefined) && env.TERM !== 'dumb';
    this.color = new Chalk({ level: colorAllowed && streams.stdout.isTTY ? 2 : 0 });
    this.errColor = new Chalk({ level: colorAllowed && streams.stderr.isTTY ? 2 : 0 });
  }

  get isStdoutTTY(): boolean {
    return Boolean(this.streams.stdout.isTTY);
  }

  /** Prompts are allowed only when a person sits at both ends. */
  get canPrompt(): boolean {
    return Boolean(this.streams.stdin.isTTY && this.streams.stdout.isTTY) && !this.options.json;
  }

  get terminalWidth(): number {
    return this.streams.stdout.columns && this.streams.stdout.columns > 20 ? this.streams.stdout.columns : 120;
  }

  /**
   * Every human-readable line reaches stdout through here, and so through terminalText(): a
   * control character of data (an ESC in a 214's city, an OSC in a carrier's name, a CR, a BEL, a
   * C1 CSI) is written as a visible escape, whatever view built the line. --json never comes here.
   */
  out(text = ''): void {
    this.streams.stdout.write(`${terminalText(text, this.color.level > 0)}\n`);
  }

  /**
   * A line of a detail view ("  Shipper      name, street, city...") that never wraps on a
   * terminal: words that pass the width go on lines of their own under the value (`indent`
   * columns in). A word wider than the terminal alone (an id, a path) is printed whole, never cut:
   * the terminal wraps it, and it can still be copied. Piped output keeps one line.
   */
  field(raw: string, indent: number): void {
    const text = this.escaped(raw);
    const width = this.terminalWidth;
    if (!this.isStdoutTTY || [...text].length <= width) return this.out(text);
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/(?<=\S) (?=\S)/)) {
      if (line !== '' && [...line].length + 1 + [...word].length > width) {
        lines.push(line);
        line = `${' '.repeat(indent)}${word}`;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
    this.out(lines.join('\n'));
  }

  /**
   * Text as out() will write it (terminalText): what a table or a wrapped line measures, so that
   * a control character shown as `\x1B` takes the room it will take.
   */
  escaped(text: string): string {
    return terminalText(text, this.color.level > 0);
  }

  /** Human output: suppressed by --quiet; with --json the command prints JSON instead. */
  info(text = ''): void {
    if (!this.options.quiet) this.out(text);
  }

  json(value: unknown): void {
    this.streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  // Messages carry data (file names, cells, what a server said): printable() keeps its control
  // characters (an ESC from a damaged file) from reaching the terminal.
  /** One line per warning, with its stable code: `warning: [CODE] message`. */
  warn(item: Pick<Warning, 'code' | 'message'>): void {
    this.streams.stderr.write(`${terminalText(`${this.errColor.yellow('warning:')} ${printable(describeWarning(item))}`, this.errColor.level > 0)}\n`);
  }

  warnAll(items: ReadonlyArray<Pick<Warning, 'code' | 'message'>>): void {
    items.forEach((item) => this.warn(item));
  }

  error(message: string): void {
    this.streams.stderr.write(`${terminalText(this.errColor.red(`shipper: ${printable(message)}`), this.errColor.level > 0)}\n`);
  }

  /** Status lines for people (progress, "wrote file"): stderr, so stdout stays clean for pipes. */
  note(message: string): void {
    if (!this.options.quiet) this.streams.stderr.write(`${printable(message)}\n`);
  }

  table(head: string[], rows: Array<Array<string | number>>, options: { colWidths?: Array<number | null>; compact?: boolean; ruleBefore?: number[] } = {}): string {
    // Compact unless asked otherwise: a rule between every row doubles a list's height for nothing.
    const compact = options.compact ?? true;
    const table = new Table({
      head: head.map((cell) => this.color.bold(this.escaped(cell))),
      style: { head: [], border: this.color.level > 0 ? ['grey'] : [] },
      wordWrap: false,
      ...(options.colWidths ? { colWidths: options.colWidths } : {}),
      // compact: rules only under the head and above the rows in ruleBefore (groups), not between all rows.
      ...(compact ? { chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } } : {}),
    });
    const rule = { mid: '─', 'left-mid': '├', 'mid-mid': '┼', 'right-mid': '┤' };
    const ruled = new Set([0, ...(options.ruleBefore ?? [])]);
    const cells = rows.map((row) => row.map((cell) => this.escaped(String(cell))));
    cells.forEach((row, index) => table.push(row.map((cell) => (compact && ruled.has(index) ? { content: cell, chars: rule } : cell))));
    return table.toString();
  }

  /**
   * A table that never wraps on a terminal: while it is wider than the terminal, `steps` run in
   * order (shrink, drop or shorten columns: tableLayout.ts), each table saying what gives way
   * first; the columns in `whole` are never cut. Piped output keeps whole cells, however wide.
   */
  fittedTable(
    head: string[],
    rows: Array<Array<string | number>>,
    steps: ReadonlyArray<FitStep>,
    options: { minWidth?: number; compact?: boolean; ruleBefore?: number[]; whole?: number[] } = {},
  ): string {
    // Measured as they will be written: a control character of data takes the room of its escape.
    const cells = rows.map((row) => row.map((cell) => this.escaped(String(cell))));
    const shown = steps.map((step) => ('replace' in step ? { ...step, cells: step.cells.map((cell) => this.escaped(cell)) } : step));
    const fitted = this.isStdoutTTY ? fitTable(head, cells, this.terminalWidth, shown, options.minWidth, options.whole) : { head, rows: cells, colWidths: undefined };
    return this.table(fitted.head, fitted.rows, {
      ...(options.compact !== undefined ? { compact: options.compact } : {}),
      ...(options.ruleBefore ? { ruleBefore: options.ruleBefore } : {}),
      ...(fitted.colWidths ? { colWidths: fitted.colWidths } : {}),
    });
  }
}

// -----------------------------------------------------------------------------------------------
// The edge: what a terminal receives

/**
 * A Select Graphic Rendition sequence (colour, bold) of the shape chalk and cli-table3 write,
 * ESC [ params m; any other sequence (cursor moves, clearing, titles, hyperlinks) is not one.
 */
const SGR = /\u001B\[([0-9;]*)m/g;
/**
 * The SGR parameters our styling writes (chalk's bold, dim, red, green, yellow, blue, cyan and the
 * grey of table borders, their resets): a foreground colour on the terminal's own background. Any
 * other (a background, black or white text, 8 concealed, blinking, 256 and true colours) is data,
 * so data cannot hide text by painting it in the background's colour.
 */
const OUR_SGR = /^(?:|0|1|2|22|3[1-6]|39|90)$/;

/**
 * Text on its way to a terminal: every control character written as a visible escape
 * (printable(): ESC as `\x1B`, BEL `\x07`, CR `\x0D`, CSI `\x9B`), newlines and tabs kept. With
 * colour on (`styled`), SGR sequences of our styling's shape stay, one parameter list at a time;
 * without colour none of ours exists, so every ESC is data and is escaped.
 */
export function terminalText(text: string, styled: boolean): string {
  if (!styled) return printable(text);
  let result = '';
  let last = 0;
  for (const match of text.matchAll(SGR)) {
    if (!OUR_SGR.test(match[1]!)) continue;
    result += printable(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return result + printable(text.slice(last));
}

// -----------------------------------------------------------------------------------------------
// Formatting for people

export { formatCents } from '../domain/money.js';

/**
 * 1,234.57 as `toLocaleString('en-US', { maximumFractionDigits })` writes it, without loading ICU's
 * number formatting (3 to 15 ms of the first call): ICU rounds the shortest decimal that reads back
 * as the number (String(value)) half away from zero, and so does this. Exponents, -0 and more than
 * 15 whole digits go to ICU.
 */
export function formatNumber(value: number, maximumFractionDigits = 2): string {
  const match = /^(-?)(\d{1,15})(?:\.(\d+))?$/.exec(String(value));
  if (!match || Object.is(value, -0) || !Number.isInteger(maximumFractionDigits) || maximumFractionDigits < 0 || maximumFractionDigits > 20)
    return value.toLocaleString('en-US', { maximumFractionDigits });
  const [, sign, whole, fraction = ''] = match;
  const kept = BigInt(whole! + fraction.slice(0, maximumFractionDigits).padEnd(maximumFractionDigits, '0'));
  const digits = String(fraction.length > maximumFractionDigits && fraction[maximumFractionDigits]! >= '5' ? kept + 1n : kept).padStart(maximumFractionDigits + 1, '0');
  const integer = digits.slice(0, digits.length - maximumFractionDigits).replace(/\B(?=(\d{3})+$)/g, ',');
  const decimals = digits.slice(digits.length - maximumFractionDigits).replace(/0+$/, '');
  return `${sign}${integer}${decimals === '' ? '' : `.${decimals}`}`;
}

// Building an Intl.DateTimeFormat costs ~0.25 ms: one per zone, so a 1,000-row table does not pay it per row.
const instantFormats = new Map<string, Intl.DateTimeFormat>();

/** "Thu 2026-11-26 17:00 EST" in the given zone (UTC when unknown). */
export function formatInstant(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  const clock = tabulatedWallClock(date, timeZone);
  if (clock) return `${formatDate(clock.date)} ${clock.time.slice(0, 5)} ${clock.zoneName}`;
  let format = instantFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    instantFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-30T17:00:00-05:00": the ETA as a local time with its offset, for scripts. */
export function localIsoInstant(iso: string, timeZone: string): string {
  const clock = tabulatedWallClock(new Date(iso), timeZone);
  if (clock) return `${clock.date}T${clock.time}${offsetText(clock.offsetMs)}`;
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

/** "-05:00", "+05:45", "+00:00" (Intl's longOffset without its "GMT"; seconds only when there are some). */
function offsetText(offsetMs: number): string {
  const total = Math.abs(offsetMs) / 1000;
  const two = (value: number) => String(value).padStart(2, '0');
  const seconds = total % 60;
  return `${offsetMs < 0 ? '-' : '+'}${two(Math.floor(total / 3600))}:${two(Math.floor(total / 60) % 60)}${seconds === 0 ? '' : `:${two(seconds)}`}`;
}

export { formatDate };

export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${formatNumber(count)} ${count === 1 ? word : pluralWord}`;
}
