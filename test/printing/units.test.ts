/** The pure parts of printing: ~HS answers, tcp:// addresses, printer resolution, spooler arguments. */
import { describe, expect, it } from 'vitest';
import { parseHostStatus, statusProblems } from '../../src/printing/zplStatus.js';
import { parseTcpPrinter, printerLabel } from '../../src/printing/rawTcp.js';
import { printConfigOf, resolvePrinter } from '../../src/printing/printers.js';
import { spoolerArguments } from '../../src/printing/spooler.js';
import { HEAD_OPEN_PAPER_OUT, PAUSED, READY } from './standIns.js';

describe('~HS', () => {
  it('reads paper out, pause and head open; ribbon out only in thermal-transfer mode; waits for two frames', () => {
    expect(statusProblems(parseHostStatus(READY)!)).toEqual([]);
    expect(statusProblems(parseHostStatus(PAUSED)!)).toEqual(['paused']);
    expect(statusProblems(parseHostStatus(HEAD_OPEN_PAPER_OUT)!)).toEqual(['paper out', 'head open']);
    expect(parseHostStatus(READY.slice(0, READY.indexOf('\x03') + 1))).toBeUndefined();
    expect(parseHostStatus('garbage')).toBeUndefined();
    const ribbon = (transfer: string) => `\x02030,0,0,1245,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,1,${transfer},2,6,0,00000000,1,000\x03\r\n`;
    expect(statusProblems(parseHostStatus(ribbon('1'))!)).toEqual(['ribbon out']);
    expect(statusProblems(parseHostStatus(ribbon('0'))!)).toEqual([]);
  });
});

describe('tcp:// printers', () => {
  it('port 9100 unless given; IPv6 in brackets; anything else is no address', () => {
    expect(parseTcpPrinter('tcp://10.0.0.5')).toEqual({ host: '10.0.0.5', port: 9100 });
    expect(parseTcpPrinter('TCP://zebra.dock:6101')).toEqual({ host: 'zebra.dock', port: 6101 });
    expect(parseTcpPrinter('tcp://[fe80::1]:9100')).toEqual({ host: 'fe80::1', port: 9100 });
    for (const text of ['http://zebra', 'tcp://', 'tcp://h/path', 'tcp://u@h', 'zebra']) expect(parseTcpPrinter(text), text).toBeUndefined();
    expect(printerLabel('zebra-2', { host: 'h', port: 9100 })).toBe('printer zebra-2 (tcp://h:9100)');
    expect(printerLabel('tcp://h:9100', { host: 'h', port: 9100 })).toBe('printer tcp://h:9100');
  });
});

describe('which printer', () => {
  const config = printConfigOf({
    printers: { 'zebra-2': { zpl: 'tcp://10.0.0.50', copies: 2 }, laser: { queue: 'HP_M507', media: 'Legal' } },
    print: { labels: 'zebra-2', bol: 'laser' },
  });
  it("--printer: a profile, else tcp://, else a queue; without it the kind's default, else the system default queue", () => {
    expect(resolvePrinter('laser', 'labels', config)).toEqual({ name: 'laser', transport: { kind: 'spooler', queue: 'HP_M507' }, media: 'Legal', copies: undefined });
    expect(resolvePrinter('tcp://h:1', 'bol', config).transport).toEqual({ kind: 'zpl', address: { host: 'h', port: 1 } });
    expect(resolvePrinter('Office_2', 'bol', config)).toEqual({ name: 'Office_2', transport: { kind: 'spooler', queue: 'Office_2' }, media: undefined, copies: undefined });
    expect(resolvePrinter(undefined, 'labels', config)).toMatchObject({ name: 'zebra-2', copies: 2 });
    expect(resolvePrinter(undefined, 'invoice', config)).toMatchObject({ transport: { kind: 'spooler', queue: undefined } });
    expect(() => resolvePrinter('tcp:nope', 'labels', config)).toThrow(/not a tcp:\/\/HOST\[:PORT\] address/);
    expect(() => resolvePrinter('two words', 'labels', config)).toThrow(/no such printer, and not a queue name/);
  });
  it('a damaged profile in the config file is named', () => {
    expect(() => printConfigOf({ printers: { bad: { queue: 'q', zpl: 'tcp://h' } } })).toThrow(/printer bad in the config file: a printer has either a queue or a zpl address/);
  });
});

describe('spooler arguments', () => {
  const job = { queue: 'dock', copies: 3, media: 'Letter', title: 'BOL-SO-000001' };
  it('lp: -d -n -o media= -t; lpr: -P -# -o media= -T; the file after --', () => {
    expect(spoolerArguments({ kind: 'lp', path: '/usr/bin/lp' }, job, '/tmp/x.pdf')).toEqual([
      '-d',
      'dock',
      '-n',
      '3',
      '-o',
      'media=Letter',
      '-t',
      'BOL-SO-000001',
      '--',
      '/tmp/x.pdf',
    ]);
    expect(spoolerArguments({ kind: 'lpr', path: '/usr/bin/lpr' }, job, '/tmp/x.pdf')).toEqual([
      '-P',
      'dock',
      '-#3',
      '-o',
      'media=Letter',
      '-T',
      'BOL-SO-000001',
      '--',
      '/tmp/x.pdf',
    ]);
    expect(spoolerArguments({ kind: 'lp', path: 'lp' }, { ...job, queue: undefined, media: undefined }, 'f')).toEqual(['-n', '3', '-t', 'BOL-SO-000001', '--', 'f']);
  });
});
