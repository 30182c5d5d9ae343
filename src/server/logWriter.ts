/**
 * Where the JSON log of `shipper serve` goes when it is the process's own stderr: the lines of one
 * turn of the event loop, written with one system call at the end of the turn (setImmediate).
 *
 * Why not pino's asynchronous destination (sonic-boom), which this replaced: each of its writes
 * went through libuv's thread pool, so under load a second thread woke every few kilobytes, on the
 * core the clients' connections need, and its completion woke the event loop again; a cached GET
 * paid a fifth of its time for its line (bench/README.md). One synchronous write per turn costs
 * less than one of those hand-offs and needs no flush at exit: a line is written by the end of the
 * turn that logged it. This is how Node itself writes stderr to a file or a pipe on Linux
 * (synchronously), and how pino writes by default (a write per line). The price: a reader of
 * the pipe that stops reading stalls the server once the pipe's buffer is full, as it would any
 * program that writes its log to stderr; nothing is dropped.
 */
import fs from 'node:fs';

/** A descriptor that will not take more now (a non-blocking pipe that is full) is tried again this much later. */
const RETRY_MS = 10;
/** At exit, how long a full non-blocking pipe is waited for before what is left is given up. */
const EXIT_WAIT_MS = 2_000;

/** A line whose text is made when it is written (its `toString()`), at the end of its turn. */
export interface LaterLine {
  toString(): string;
}

export class TurnWriter {
  private lines: Array<string | LaterLine> = [];
  /** Bytes a full non-blocking descriptor did not take yet (written before any later line). */
  private pending: Buffer | undefined;
  private scheduled = false;
  private retry: NodeJS.Timeout | undefined;
  /** The descriptor is gone (EPIPE, EBADF): lines are no longer written. */
  private broken = false;

  constructor(
    private readonly fd: number,
    /** fs.writeSync; a test gives a descriptor that takes part of the bytes or none (EAGAIN). */
    private readonly writeSync: (fd: number, data: Buffer | string) => number = (fd, data) => (typeof data === 'string' ? fs.writeSync(fd, data) : fs.writeSync(fd, data)),
  ) {}

  write(line: string | LaterLine): boolean {
    if (this.broken) return true;
    this.lines.push(line);
    if (!this.scheduled && this.retry === undefined) {
      this.scheduled = true;
      setImmediate(this.endOfTurn);
    }
    return true;
  }

  private readonly endOfTurn = (): void => {
    this.scheduled = false;
    this.writeOut();
  };

  /**
   * Writes what is held, in order. `exiting`: the process is about to exit, so a full
   * non-blocking descriptor is waited for here (up to EXIT_WAIT_MS) instead of later.
   */
  writeOut(exiting = false): void {
    if (this.retry !== undefined) {
      clearTimeout(this.retry);
      this.retry = undefined;
    }
    if (this.broken) return;
    // Most writes: the turn's text whole, made UTF-8 by the call itself (no Buffer made here).
    let data: Buffer | string = this.take();
    const deadline = exiting ? Date.now() + EXIT_WAIT_MS : 0;
    while (data.length > 0) {
      let written: number;
      try {
        written = this.writeSync(this.fd, data);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
          // Stderr is closed or gone: nothing can be written there any more.
          this.broken = true;
          this.pending = undefined;
          this.lines = [];
          return;
        }
        if (exiting && Date.now() < deadline) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
          continue;
        }
        if (exiting) return;
        this.pending = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.writeOut();
        }, RETRY_MS);
        return;
      }
      if (typeof data === 'string') {
        if (written === Buffer.byteLength(data, 'utf8')) return;
        data = Buffer.from(data, 'utf8');
      }
      data = data.subarray(written);
    }
  }

  /** What is held: the bytes left over, then the turn's lines; the lines alone as text. */
  private take(): Buffer | string {
    const text = this.lines.length === 1 ? this.lines[0]!.toString() : this.lines.join('');
    this.lines = [];
    const pending = this.pending;
    this.pending = undefined;
    return pending ? Buffer.concat([pending, Buffer.from(text, 'utf8')]) : text;
  }
}
