/**
 * RFC 9457 problem details, the one error currency of both API implementations: the local engine
 * throws ProblemError, the server writes it as application/problem+json, the remote client turns
 * such a body back into the same ProblemError, and the CLI maps its status to an exit code.
 */
import type { ProblemDetail, Violation } from '../domain/schemas.js';

export const PROBLEM_TYPE_BASE = 'urn:shipper:problem:';

export class ProblemError extends Error {
  constructor(readonly problem: ProblemDetail) {
    super(problem.detail ?? problem.title);
    this.name = 'ProblemError';
  }

  get status(): number {
    return this.problem.status;
  }
}

/**
 * Remote mode could not get an answer it can use: the server is unreachable, too slow, or answered
 * something that is not the Shipper Freight API. The CLI exits 3 with this one line.
 */
export class RemoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteError';
  }
}

function problem(status: number, slug: string, title: string, detail: string, extra: Partial<ProblemDetail> = {}): ProblemError {
  return new ProblemError({ type: `${PROBLEM_TYPE_BASE}${slug}`, title, status, detail, ...extra });
}

export function constraintViolation(violations: Violation[], detail?: string): ProblemError {
  const count = violations.length;
  return problem(400, 'constraint-violation', 'Constraint Violation', detail ?? `the request has ${count} invalid field${count === 1 ? '' : 's'}`, {
    violations,
  });
}

export const notFound = (what: string, id: string): ProblemError => problem(404, 'not-found', 'Not Found', `${what} ${id} not found`);

export const conflict = (detail: string, violations?: Violation[]): ProblemError =>
  problem(409, 'conflict', 'Conflict', detail, violations && violations.length > 0 ? { violations } : {});

export const idempotencyKeyReused = (key: string): ProblemError =>
  problem(422, 'idempotency-key-reused', 'Idempotency-Key Reused', `Idempotency-Key ${key} was already used with a different request body`);

export const storeFailure = (detail: string): ProblemError => problem(500, 'store-failure', 'Store Failure', detail);

export const internalError = (detail = 'the service failed to handle the request'): ProblemError =>
  problem(500, 'internal-error', 'Internal Server Error', detail);

export { problem as makeProblem };
