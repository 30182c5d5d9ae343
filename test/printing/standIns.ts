/**
 * Stand-ins for the dock's printers: a real TCP listener that speaks like a Zebra on port 9100
 * (answers ~HS, keeps each document's bytes, may reset connections), and an `lp` script on PATH
 * that records its arguments and keeps a copy of the file it was given.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const READY = '\x02030,0,0,1245,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,0,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';
export const PAUSED = '\x02030,0,1,1245,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,0,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';
export const HEAD_OPEN_PAPER_OUT = '\x02030,1,0,1245,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,1,0,0,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';

export interface ThermalPrinter {
  url: string;
  /** The bytes of each document connection, in the order they completed. */
  documents: Buffer[];
  statusQueries: number;
  /** What ~HS is answered with (undefined: no answer, the connection is closed). */
  status: string | undefined;
  /** Document connections accepted before the printer resets every later one (Infinity: never). */
  acceptDocuments: number;
  /**
   * Called when a document has arrived whole (index from 0); the printer closes its side of that
   * connection once the promise it returns resolves (the sender waits for that close).
   */
  onDocument?: ((index: number) => Promise<void> | void) | undefined;
  /** Resolves when `count` documents have arrived whole. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function thermalPrinter(): Promise<ThermalPrinter> {
  const sockets = new Set<Socket>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let accepted = 0;
  const printer: ThermalPrinter = {
    url: '',
    documents: [],
    statusQueries: 0,
    status: READY,
    acceptDocuments: Infinity,
    received: (count) => (printer.documents.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const chunks: Buffer[] = [];
    let kind: 'status' | 'document' | 'refused' | undefined;
    socket.on('data', (chunk: Buffer) => {
      if (kind === undefined) {
        if (chunk.toString('latin1').startsWith('~HS')) {
          kind = 'status';
          printer.statusQueries++;
          if (printer.status === undefined) socket.end();
          else socket.write(printer.status);
          return;
        }
        if (accepted >= printer.acceptDocuments) {
          kind = 'refused';
          socket.resetAndDestroy();
          return;
        }
        accepted++;
        kind = 'document';
      }
      if (kind === 'document') chunks.push(chunk);
    });
    socket.on('end', () => {
      if (kind !== 'document') return void socket.end();
      const index = printer.documents.push(Buffer.concat(chunks)) - 1;
      for (const waiter of waiters.filter((candidate) => printer.documents.length >= candidate.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      void Promise.resolve(printer.onDocument?.(index)).then(() => socket.end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  printer.url = `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return printer;
}

export interface SpoolerJob {
  args: string[];
  file: Buffer;
  fileName: string;
}

/**
 * A directory with an `lp` (or `lpr`) that records each job in `log/`: its arguments and the file
 * it was given. It refuses the queue `nosuch` as CUPS does, and, without -d, says there is no
 * default destination when LP_NO_DEFAULT is set.
 */
export async function standInSpooler(dir: string, name: 'lp' | 'lpr' = 'lp'): Promise<{ bin: string; jobs(): Promise<SpoolerJob[]> }> {
  const bin = join(dir, 'bin');
  const log = join(dir, 'log');
  await mkdir(bin, { recursive: true });
  await mkdir(log, { recursive: true });
  const script = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const log = ${JSON.stringify(log)};
const queue = args.includes('-d') ? args[args.indexOf('-d') + 1] : args.includes('-P') ? args[args.indexOf('-P') + 1] : undefined;
if (queue === 'nosuch') { process.stderr.write('${name}: The printer or class does not exist.\\n'); process.exit(1); }
if (!queue && process.env.LP_NO_DEFAULT) { process.stderr.write('${name}: Error - no default destination available.\\n'); process.exit(1); }
const n = fs.readdirSync(log).filter((f) => f.endsWith('.json')).length;
const file = args[args.length - 1];
fs.copyFileSync(file, path.join(log, 'job-' + String(n).padStart(4, '0') + '.data'));
fs.writeFileSync(path.join(log, 'job-' + String(n).padStart(4, '0') + '.json'), JSON.stringify({ args, fileName: path.basename(file) }));
process.stdout.write('request id is ' + (queue || 'default') + '-' + (n + 1) + ' (1 file(s))\\n');
`;
  await writeFile(join(bin, name), script);
  await chmod(join(bin, name), 0o755);
  return {
    bin,
    async jobs() {
      const names = (await readdir(log)).filter((file) => file.endsWith('.json')).sort();
      return Promise.all(
        names.map(async (file) => {
          const { args, fileName } = JSON.parse(await readFile(join(log, file), 'utf8')) as { args: string[]; fileName: string };
          return { args, fileName, file: await readFile(join(log, file.replace(/\.json$/, '.data'))) };
        }),
      );
    },
  };
}
