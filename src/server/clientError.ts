/**
 * Requests that Node's HTTP parser refuses before any route sees them (an unknown method such as
 * BREW, a malformed request line or header, headers too large, a request too slow): answered as
 * a ProblemDetail like every other error, with the status Node would give, instead of Node's bare
 * "400 Bad Request" without a body, or (on a kept-alive connection) no answer at all. A
 * connection still writing an answer is closed without one, as Node does.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_TYPE } from '../api/wire.js';
import { PROBLEM_TYPE_BASE } from '../api/problems.js';

const STATUS_OF_CODE: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'request-header-fields-too-large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'payload-too-large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request-timeout'],
};

export function answerClientErrors(server: Server): void {
  const answering = new WeakSet<object>();
  server.on('request', (req, res) => {
    answering.add(req.socket);
    res.once('close', () => answering.delete(req.socket));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || answering.has(socket)) {
      socket.destroy();
      return;
    }
    const [status, title, slug] = STATUS_OF_CODE[error.code ?? ''] ?? [400, 'Bad Request', 'bad-request'];
    const body = JSON.stringify({
      type: `${PROBLEM_TYPE_BASE}${slug}`,
      title,
      status,
      detail: status === 400 ? 'the request is not HTTP/1.1 that this server reads (its method, request line or headers)' : title.toLowerCase(),
    });
    const lines = [
      `HTTP/1.1 ${status} ${title}`,
      `content-type: ${PROBLEM_TYPE}; charset=utf-8`,
      `content-length: ${Buffer.byteLength(body)}`,
      'cache-control: no-store',
      'connection: close',
    ];
    // The answer to a HEAD has no body, even when its request line is what failed.
    const head = (error as { rawPacket?: Buffer }).rawPacket?.toString('latin1').startsWith('HEAD ') ?? false;
    socket.end(`${lines.join('\r\n')}\r\n\r\n${head ? '' : body}`, () => socket.destroy());
  });
}
