/**
 * A one-line progress bar on stderr, redrawn at most ten times a second, with the rate and the
 * time left: `Booking  ███████░░░  412/1,000 shipments  180/s  3 s left`. Only for people: the
 * caller shows it when stderr is a terminal, not in CI and not with --json or --quiet.
 */
import { formatNumber, plural } from './output.js';

export interface ProgressStream {
  write(text: string): boolean;
  columns?: number | undefined;
}

/** What one redraw shows. */
export interface ProgressFrame {
  label: string;
  /** How far, 0 to 1. */
  ratio: number;
  /** Shown as a percentage too (when the counts do not say how far: bytes behind the scenes). */
  percent: boolean;
  /** `412/1,000 shipments` or `1,234 shipments`. */
  counts: string;
  /** Shipments per second, once it can be told. */
  rate?: number | undefined;
  secondsLeft?: number | undefined;
}

const LABEL_WIDTH = 8;
const MAX_BAR = 30;
const MIN_BAR = 5;
/** Rate and time left are shown once this much time has passed: earlier they are noise. */
const SETTLE_MS = 250;
const REDRAW_MS = 100;

/** `3 s`, `1 min 05 s`, `2 h 03 min`. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} min`;
}

/**
 * The line of one frame, never as wide as the terminal: a line that wraps is not redrawn in
 * place. On a narrow terminal the time left goes first, then the rate, the percentage, and the bar
 * shrinks.
 */
export function renderProgressLine(frame: ProgressFrame, columns: number): string {
  const ratio = Math.min(1, Math.max(0, Number.isFinite(frame.ratio) ? frame.ratio : 0));
  const optional = [
    frame.percent ? `${String(Math.floor(ratio * 100)).padStart(3)}%` : undefined,
    frame.counts,
    frame.rate !== undefined ? `${formatNumber(Math.round(frame.rate))}/s` : undefined,
    frame.secondsLeft !== undefined ? `${formatDuration(frame.secondsLeft)} left` : undefined,
  ];
  const room = columns - 1; // the last column stays free: some terminals wrap when it is written
  const label = frame.label.padEnd(LABEL_WIDTH);
  const tail = (parts: Array<string | undefined>) => parts.filter((part) => part !== undefined).join('  ');
  // Drop the time left, then the rate, then the percentage, until a bar of MIN_BAR fits.
  const dropOrder = [3, 2, 0];
  let parts = optional;
  for (let dropped = 0; label.length + 1 + MIN_BAR + 2 + tail(parts).length > room && dropped < dropOrder.length; dropped++) {
    parts = parts.map((part, index) => (index === dropOrder[dropped] ? undefined : part));
  }
  const text = tail(parts);
  // The bar's width follows the terminal, not the text, so that it does not jitter as the numbers grow.
  const preferred = Math.max(10, Math.min(MAX_BAR, columns - 60));
  const width = Math.max(MIN_BAR, Math.min(preferred, room - label.length - 1 - 2 - text.length));
  // Rounded down: the bar is full, and the percentage 100, only when the work is done.
  const filled = Math.floor(ratio * width);
  const line = `${label} ${'█'.repeat(filled)}${'░'.repeat(width - filled)}  ${text}`;
  return [...line].length > room ? [...line].slice(0, Math.max(0, room)).join('') : line;
}

export class ProgressBar {
  private label = '';
  private total = 0;
  private unit: 'bytes' | 'shipments' | 'documents' = 'shipments';
  private startedAt = 0;
  private lastDraw = 0;
  private lastDone = 0;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * A pass starts: `total` is what `done` counts up to: the file's bytes (checking: the total of
   * shipments is not known yet) or the shipments to book. Draws the empty bar.
   */
  start(label: string, total: number, unit: 'bytes' | 'shipments' | 'documents'): void {
    this.label = label;
    this.total = total;
    this.unit = unit;
    this.startedAt = this.clock();
    this.lastDraw = 0;
    this.lastDone = 0;
    this.draw(0, 0);
  }

  /** Redraws at most ten times a second, and always the last step, so the bar ends where the work does. */
  update(done: number, shipments: number): void {
    const now = this.clock();
    const finished = done >= this.total && this.lastDone < this.total;
    if (now - this.lastDraw < REDRAW_MS && !finished) return;
    this.draw(done, shipments);
  }

  /** What the bar shows for `done` of the total, now. */
  frame(done: number, shipments: number): ProgressFrame {
    const elapsedMs = this.clock() - this.startedAt;
    const ratio = this.total > 0 ? done / this.total : 1;
    const settled = elapsedMs >= SETTLE_MS && done > 0;
    const counts =
      this.unit === 'bytes'
        ? plural(shipments, 'shipment')
        : `${formatNumber(Math.min(done, this.total))}/${plural(this.total, this.unit === 'documents' ? 'document' : 'shipment')}`;
    return {
      label: this.label,
      ratio,
      percent: this.unit === 'bytes',
      counts,
      rate: settled ? shipments / (elapsedMs / 1000) : undefined,
      secondsLeft: settled && done < this.total ? ((elapsedMs / 1000) * (this.total - done)) / done : undefined,
    };
  }

  private draw(done: number, shipments: number): void {
    this.lastDraw = this.clock();
    this.lastDone = done;
    this.stream.write(`\r\u001b[2K${renderProgressLine(this.frame(done, shipments), this.stream.columns || 80)}`);
    this.drawn = true;
  }

  /** Clears the line, so that whatever is printed next starts clean. */
  clear(): void {
    if (this.drawn) this.stream.write('\r\u001b[2K');
    this.drawn = false;
  }
}

/** Progress bars are for a person watching a terminal: never in CI, in pipes, with --json or --quiet. */
export function wantsProgress(stderrIsTTY: boolean, options: { json: boolean; quiet: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stderrIsTTY && !options.json && !options.quiet && !env.CI && env.TERM !== 'dumb';
}
