/**
 * A file upload (multipart/form-data) read with @fastify/busboy, a parser kept by the Fastify
 * team: the one part named by the operation, collected up to its limit. Past the limit the
 * request is refused at once (413) and no more of it is read; nothing reaches the engine.
 */
import type { IncomingMessage } from 'node:http';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import type { UploadedFile } from '../api/operations.js';
import { constraintViolation, documentTooLarge, makeProblem } from '../api/problems.js';

/** Room for the multipart framing around the file (boundaries, part headers). */
const FRAMING_BYTES = 64 * 1024;

export function readUpload(req: IncomingMessage, field: string, maxBytes: number): Promise<UploadedFile> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    return Promise.reject(
      makeProblem(
        415,
        'unsupported-media-type',
        'Unsupported Media Type',
        `send the document as multipart/form-data with the part ${field} (got ${contentType.slice(0, 60) || 'no Content-Type'})`,
      ),
    );
  }
  const tooLarge = () => documentTooLarge(maxBytes);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_BYTES) return Promise.reject(tooLarge());

  return new Promise((resolve, reject) => {
    let settled = false;
    let file: UploadedFile | undefined;
    let fileDone: Promise<void> = Promise.resolve();
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.pause();
      reject(error);
    };
    let parser: BusboyInstance;
    try {
      parser = new Busboy({ headers: { ...req.headers, 'content-type': contentType }, limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 1024, parts: 40 } });
    } catch {
      return reject(malformed('the multipart/form-data body has no boundary'));
    }
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      if (name !== field || file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      file = { filename: filename ?? '', contentType: mimeType ?? '', content: new Uint8Array() };
      const uploaded = file;
      stream.on('limit', () => fail(tooLarge()));
      fileDone = new Promise((done) => {
        stream.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          chunks.push(chunk);
        });
        stream.on('end', () => {
          uploaded.content = new Uint8Array(Buffer.concat(chunks, size));
          done();
        });
      });
    });
    parser.on('finish', () => {
      void fileDone.then(() => {
        if (settled) return;
        if (!file) return fail(constraintViolation([{ field, reason: `is required: send the document as the multipart part "${field}"` }]));
        settled = true;
        resolve(file);
      });
    });
    parser.on('error', () => fail(malformed('the multipart/form-data body is malformed')));
    req.on('error', fail);
    req.pipe(parser);
  });
}

const malformed = (detail: string) => makeProblem(400, 'malformed-multipart', 'Bad Request', detail);
