/**
 * Raw printing over TCP (JetDirect, port 9100): one connection per document. A document counts as
 * sent when all its bytes were written and the connection closed without error; anything else
 * (refused, reset, no answer within the timeout) is a PrintError naming the printer.
 */
import { connect, type Socket } from 'node:net';
import { PrintError } from './errors.js';
import { parseHostStatus, type PrinterStatus } from './zplStatus.js';

export interface TcpPrinterAddress {
  host: string;
  port: number;
}

export interface TcpTimeouts {
  /** Connecting, and then each wait for the printer (writing, closing, answering ~HS), in ms. */
  timeoutMs: number;
}

export const JETDIRECT_PORT = 9100;

/** `tcp://HOST[:PORT]` (port 9100 when not given); undefined when the text is no such URL. */
export function parseTcpPrinter(text: string): TcpPrinterAddress | undefined {
  if (!/^tcp:\/\//i.test(text) || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (!url.hostname || (url.pathname && url.pathname !== '/') || url.search || url.username) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port: url.port ? Number(url.port) : JETDIRECT_PORT };
}

/** `printer zebra-2 (tcp://10.0.0.5:9100)`, or `printer tcp://10.0.0.5:9100` when it is named by its address. */
export function printerLabel(printer: string, address: TcpPrinterAddress): string {
  const url = tcpUrl(address);
  return printer === url ? `printer ${url}` : `printer ${printer} (${url})`;
}

export function tcpUrl(address: TcpPrinterAddress): string {
  return `tcp://${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
}

function connectionFailure(error: NodeJS.ErrnoException, printer: string, address: TcpPrinterAddress): PrintError {
  switch (error.code) {
    case 'ECONNREFUSED':
      return new PrintError(`${printerLabel(printer, address)} refused the connection`, 'check that it is on and that the port is its raw port (9100)');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new PrintError(`printer ${printer}: host ${address.host} not found`, 'check the name in shipper printer list, or give its IP address');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new PrintError(`${printerLabel(printer, address)} is unreachable`, 'check its network cable and IP address');
    case 'ECONNRESET':
    case 'EPIPE':
      return new PrintError(
        `${printerLabel(printer, address)} dropped the connection before the document was complete`,
        'check the printer, then run the command again with --resume',
      );
    default:
      return new PrintError(`${printerLabel(printer, address)}: ${error.code ?? error.message}`, 'check the printer, then run the command again with --resume');
  }
}

/** Opens a connection, or fails with the printer's name; the socket times out after `timeoutMs` of silence. */
function open(address: TcpPrinterAddress, printer: string, { timeoutMs }: TcpTimeouts): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address.host, port: address.port });
    const fail = (error: PrintError) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs);
    socket.once('timeout', () =>
      fail(new PrintError(`${printerLabel(printer, address)} did not answer within ${timeoutMs} ms`, 'check that it is on and reachable (print.timeoutMs sets the wait)')),
    );
    socket.once('error', (error) => fail(connectionFailure(error, printer, address)));
    socket.once('connect', () => {
      socket.removeAllListeners('timeout');
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

/**
 * Sends the bytes on one connection and closes it: resolves once every byte was written and the
 * connection closed without error; rejects with a PrintError otherwise.
 */
export async function sendRaw(address: TcpPrinterAddress, printer: string, bytes: Uint8Array, timeouts: TcpTimeouts): Promise<void> {
  const socket = await open(address, printer, timeouts);
  await new Promise<void>((resolve, reject) => {
    let failure: PrintError | undefined;
    socket.on('timeout', () => {
      failure ??= new PrintError(
        `${printerLabel(printer, address)} stopped taking data for ${timeouts.timeoutMs} ms; the document may be incomplete`,
        'check the printer (paper, head, pause), then run the command again with --resume',
      );
      socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      failure ??= connectionFailure(error, printer, address);
    });
    // What the printer says back (it should say nothing) is read and dropped, so that its close is seen.
    socket.on('data', () => undefined);
    socket.once('close', (hadError) => {
      if (failure) reject(failure);
      else if (hadError) reject(new PrintError(`${printerLabel(printer, address)} closed the connection with an error`, 'check the printer, then run again with --resume'));
      else resolve();
    });
    socket.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}

/**
 * Asks a ZPL printer its status (`~HS`) on a connection of its own. Undefined when it does not
 * answer in time or answers something else (not every raw printer speaks ZPL's status); a printer
 * that cannot be reached is a PrintError, as its first document would be.
 */
export async function queryStatus(address: TcpPrinterAddress, printer: string, timeouts: TcpTimeouts): Promise<PrinterStatus | undefined> {
  const socket = await open(address, printer, timeouts);
  return new Promise((resolve) => {
    let text = '';
    const done = (status: PrinterStatus | undefined) => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(status);
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const status = parseHostStatus(text);
      if (status) done(status);
    });
    socket.on('timeout', () => done(undefined));
    socket.on('error', () => done(undefined));
    socket.on('close', () => done(parseHostStatus(text)));
    socket.write('~HS\r\n');
  });
}
