/**
 * A one-line progress bar on stderr, redrawn at most ten times a second. Only for people: the
 * caller shows it when stderr is a terminal, not in CI and not with --json or --quiet.
 */
export interface ProgressStream {
  write(text: string): boolean;
  columns?: number | undefined;
}

export class ProgressBar {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private label: string,
    private total: number,
  ) {}

  restart(label: string, total: number): void {
    this.label = label;
    this.total = total;
    this.lastDraw = 0;
  }

  update(done: number, detail: string): void {
    const now = Date.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const ratio = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const width = Math.max(10, Math.min(30, (this.stream.columns ?? 80) - this.label.length - detail.length - 12));
    const filled = Math.round(ratio * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    this.stream.write(`\r\u001b[2K${this.label} ${bar} ${String(Math.floor(ratio * 100)).padStart(3)}% ${detail}`);
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
