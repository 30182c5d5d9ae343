/** What every carrier-file writer answers: the document and warnings, or the violations. */
import type { Violation } from '../domain/schemas.js';

export type CarrierFileResult<T> = { ok: true; document: T; warnings: string[] } | { ok: false; violations: Violation[] };
