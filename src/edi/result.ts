/** What every carrier-file writer answers: the document and warnings, or the violations. */
import type { Violation } from '../domain/schemas.js';
import type { Warning } from '../domain/warnings.js';

export type CarrierFileResult<T> = { ok: true; document: T; warnings: Warning[] } | { ok: false; violations: Violation[] };
