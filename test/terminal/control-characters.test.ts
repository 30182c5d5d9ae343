/**
 * Control characters of data never reach a terminal raw (issue 39, item 5): ESC (a CSI that clears
 * the screen, an OSC that retitles the window), BEL, CR and the C1 CSI (U+009B) sent through every
 * source of text (a typed value, a CSV cell, a carrier's 214 and ITV file, an agreement, a remote
 * server's answer) come out as visible escapes (`\x1B`), on a terminal of 80 columns and piped.
 * One escape at the output edge (IO in src/cli/output.ts) does it, whatever view built the line.
 */
import { readFileSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackedShipmentArgs } from '../helpers/fixtures.js';
import { Chalk } from 'chalk';
import { IO, terminalText } from '../../src/cli/output.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess, type InProcessOptions } from '../helpers/inProcess.js';

/** Clear the screen, retitle the window, ring, return to the start of the line, a C1 CSI. */
const HOSTILE = '\u001b[2J\u001b]0;pwned\u0007\r\u009b';
const SHOWN = '\\x1B[2J\\x1B]0;pwned\\x07\\x0D\\x9B';
/** Any C0 control but newline and tab, DEL, any C1 control. */
const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

const TRACKING_FIXTURES = fileURLToPath(new URL('../tracking/fixtures/', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../../templates/agreements/', import.meta.url));
/** A rate-shopping quote across the sample agreements, locally and against a server. */
const RATE_SHOPPING = ['quote', '--from', '90001', '--to', '98101', '-c', 'pallets=1,weight=800,dims=48x40x48,desc=Parts', '--carrier', 'all'];

let dir: { dir: string; cleanup: () => Promise<void> };
const path = (name: string) => join(dir.dir, name);

function cli(args: string[], options: InProcessOptions & { now?: string } = {}) {
  return runInProcess(['--store', path('store'), ...args], {
    ...options,
    cwd: dir.dir,
    env: { SHIPPER_NOW: options.now ?? '2026-11-30T18:00:00Z', SHIPPER_CONFIG_DIR: path('config'), SHIPPER_RETRIES: '0', ...options.env },
  });
}

/** On an 80-column terminal and piped: both outputs hold the escapes and no raw control character. */
async function expectEscaped(args: string[], options: InProcessOptions & { now?: string } = {}) {
  // stdout a terminal (stderr not: a progress bar's own \r and ESC [2K are ours).
  const results = [await cli(args, { ...options, columns: 80 }), await cli(args, options)];
  for (const result of results) {
    const text = `${result.stdout}${result.stderr}`;
    expect(text, text).not.toMatch(RAW_CONTROL);
    expect(Buffer.from(text).includes(0x9b), 'no C1 CSI byte').toBe(false);
  }
  return { tty: results[0]!, piped: results[1]! };
}

beforeAll(async () => {
  dir = await tempDir('shipper-controls-');
  const book = async (args: string[]) => {
    const result = await cli(['-q', 'ship', ...args], { now: '2026-11-23T15:00:00Z' });
    expect(result.code, result.stderr).toBe(0);
  };
  // The two shipments of the tracking fixtures: ODFL's 214 finds the first by PRO, SAIA's ITV the second by BOL number.
  for (const args of trackedShipmentArgs()) await book(args);
}, 60_000);
afterAll(() => dir.cleanup());

describe('control characters of every source reach the terminal as escapes', () => {
  it('a typed value: the error quoting it, and a file of ZIPs in the transit table', async () => {
    const { tty } = await expectEscaped(['track', `SO-${HOSTILE}`]);
    expect(tty.code).toBe(4);
    expect(tty.stderr).toContain(`SO-${SHOWN}`);
    await writeFile(path('zips.txt'), `10001\n9${HOSTILE}\n`);
    const transit = await expectEscaped(['transit', '--from', '60601', '--to', path('zips.txt')]);
    // The file's lines split at the CR and the ';' too; each piece is shown escaped.
    expect(transit.piped.stdout).toContain('9\\x1B[2J\\x1B]0 (line 2)');
    expect(transit.piped.stdout).toContain('pwned\\x07 (line 2)');
    expect(transit.piped.stdout).toContain('\\x9B (line 2)');
    expect(transit.tty.stdout.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
  });

  it('a CSV cell: the rejected row quotes it', async () => {
    const header = readFileSync(fileURLToPath(new URL('../../templates/import/shipments-sample.csv', import.meta.url)), 'utf8').split('\n')[0];
    const row = `PO${HOSTILE}1,,,,,Acme DC,2100 S Halsted St,,Chicago,IL,60608,US,,,Store 12,1 Penn Plaza,,New York,NY,10001,US,,,2,1200,48,40,48,Parts,,,`;
    await writeFile(path('hostile.csv'), `${header}\n${row}\n`);
    const { tty } = await expectEscaped(['import', path('hostile.csv'), '--dry-run']);
    expect(tty.code).toBe(1);
    expect(`${tty.stdout}${tty.stderr}`).toContain(`PO${SHOWN}1`);
  });

  it("a carrier's 214: the timeline and the Tracking line", async () => {
    const edi = (await readFile(join(TRACKING_FIXTURES, 'odfl-214-a.edi'), 'utf8')).replace(/MS1\*([A-Z ]+)\*/g, `MS1*$1${HOSTILE}*`);
    await writeFile(path('hostile-214.edi'), edi);
    const imported = await expectEscaped(['track', 'import', path('hostile-214.edi')]);
    expect(imported.tty.code, imported.tty.stderr).toBe(0);
    const { tty, piped } = await expectEscaped(['track', 'SO-000001']);
    // The X12 reader drops the CR (a line end between segments); the rest is shown escaped.
    const shown = SHOWN.replace('\\x0D', '');
    expect(piped.stdout.split('\n').find((line) => line.startsWith('Tracking:'))).toContain(`X6 En route to delivery, NEW YORK${shown}, NY`);
    expect(piped.stdout).toContain(`│ CHICAGO${shown}, IL`);
    expect(tty.stdout).toContain(`CHICAGO\\x1B`);
    expect(tty.stdout.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
  });

  it("a carrier's ITV file: the timeline", async () => {
    const itv = JSON.parse(await readFile(join(TRACKING_FIXTURES, 'saia-itv.json'), 'utf8')) as { notifications: Array<{ terminalAddress: { City: string } }> };
    for (const notification of itv.notifications) notification.terminalAddress.City = `Denver${HOSTILE}`;
    await writeFile(path('hostile-itv.json'), JSON.stringify(itv));
    const imported = await expectEscaped(['track', 'import', path('hostile-itv.json')], { now: '2026-12-02T20:00:00Z' });
    expect(imported.tty.code, imported.tty.stderr).toBe(0);
    const { piped } = await expectEscaped(['track', 'SO-000002'], { now: '2026-12-02T20:00:00Z' });
    expect(piped.stdout).toContain(`Denver${SHOWN}`);
  });

  it("an agreement's carrierName: tariff check refuses it and says so in escapes", async () => {
    await cp(SAMPLES, path('agreements'), { recursive: true });
    const file = path('agreements/saml/agreement.json');
    const agreement = JSON.parse(await readFile(file, 'utf8')) as { carrierName: string };
    await writeFile(file, JSON.stringify({ ...agreement, carrierName: `Sample${HOSTILE}Motor Lines` }));
    const { tty } = await expectEscaped(['tariff', 'check', path('agreements')]);
    expect(tty.code).not.toBe(0);
    expect(tty.stderr).toMatch(/saml\/agreement\.json:1: carrierName: must be one line of text without control characters .*found ESC at character 7/);
    // The rate shop prices with the two good agreements and names the refused one, escaped.
    const rates = await expectEscaped([
      '--tariffs',
      path('agreements'),
      'quote',
      '--from',
      '60601',
      '--to',
      '10001',
      '-c',
      'pallets=2,weight=1200,dims=48x40x48,desc=Parts',
      '--carrier',
      'all',
    ]);
    expect(rates.piped.stdout).not.toContain('pwned');
  });

  it("a remote server's answer: the rate shop's carrier, place and reasons", async () => {
    const quotes = await cli(['--json', '--tariffs', 'samples', ...RATE_SHOPPING]);
    expect(quotes.code, quotes.stderr).toBe(0);
    const items = JSON.parse(quotes.stdout) as Array<{ id: string; carrier: { name: string }; pickupAddress: { city: string } }>;
    items[0]!.carrier.name = `Sample${HOSTILE}Coastal`;
    items[0]!.pickupAddress.city = `Los Angeles${HOSTILE}`;
    const answer = {
      items,
      uncovered: [{ carrier: { scac: 'ZZZZ', name: `Zed${HOSTILE}` }, agreement: null, reason: `no rates${HOSTILE}` }],
      cheapestQuoteId: items[0]!.id,
      fastestQuoteId: null,
    };
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { tty, piped } = await expectEscaped(['--base-url', url, ...RATE_SHOPPING]);
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stdout).toContain(`Rates Los Angeles${SHOWN}, CA 90001`);
      expect(piped.stdout).toContain(`Sample${SHOWN}Coastal`);
      expect(piped.stdout).toContain(`ZZZZ Zed${SHOWN} not quoted: no rates${SHOWN}`);
      expect(tty.stdout.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the edge keeps our colours and nothing else', () => {
  it('on a colour terminal our SGR styling stays; a CSI that clears, an OSC title, a hidden-text SGR, BEL, CR and C1 are escaped', () => {
    const chalk = new Chalk({ level: 2 });
    const ours = `${chalk.bold.red('CANCELLED')} ${chalk.grey('│')} ${chalk.green('OK')}`;
    expect(terminalText(ours, true)).toBe(ours);
    expect(terminalText(`${chalk.red('x')}${HOSTILE}\u001b[8mhidden\u001b[0m`, true)).toBe(`${chalk.red('x')}${SHOWN}\\x1B[8mhidden\u001b[0m`);
    // Black on black, a background, 256 colours: data painting text away is escaped too.
    expect(terminalText('\u001b[30;40mgone\u001b[47m\u001b[38;5;16m', true)).toBe('\\x1B[30;40mgone\\x1B[47m\\x1B[38;5;16m');
    // Every style the views use stays.
    const styles = [
      chalk.bold('a'),
      chalk.dim('b'),
      chalk.red('c'),
      chalk.green('d'),
      chalk.yellow('e'),
      chalk.blue('f'),
      chalk.cyan('g'),
      chalk.grey('h'),
      chalk.bold.green('i'),
    ].join(' ');
    expect(terminalText(styles, true)).toBe(styles);
    // Without colour nothing of ours is an ESC: every one is data.
    expect(terminalText(ours, false)).toBe(ours.replace(/\u001b/g, '\\x1B'));
    expect(terminalText('line 1\n\tline 2', false)).toBe('line 1\n\tline 2');
    expect(terminalText('', true)).toBe('');
  });

  it("IO.out, IO.field and IO.table escape what they are given, and a table measures a cell's escapes", () => {
    let stdout = '';
    const out = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    out.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const io = new IO({ stdout: out, stderr: new PassThrough(), stdin: new PassThrough() }, { json: false, color: true, quiet: false }, {});
    io.out(`a${HOSTILE}`);
    io.field(`  Carrier  b${HOSTILE}`, 11);
    io.out(io.fittedTable(['Name', 'Note'], [[`c${HOSTILE}`, io.color.red('red')]], []));
    out.end();
    expect(stdout).not.toMatch(/\u001b(?!\[[0-9;]*m)/);
    expect(stdout).not.toMatch(/[\u0007\r\u009b]/);
    expect(stdout).toContain(`a${SHOWN}\n  Carrier  b${SHOWN}\n`);
    expect(stdout).toContain('\u001b[31mred\u001b[39m');
    // Every row of the table as wide as its head: the escape was measured.
    const rows = stdout
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => line.replace(/\u001b\[[0-9;]*m/g, ''));
    expect(new Set(rows.map((line) => [...line].length)).size).toBe(1);
  });
});
