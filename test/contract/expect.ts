/** Assertions shared by the contract cases. */
import { expect } from 'vitest';
import { ProblemError } from '../../src/api/problems.js';
import type { ProblemDetail, QuoteRequestInput, ShipmentRequestInput } from '../../src/domain/schemas.js';
import { isFreightCheckCode, type Warning } from '../../src/domain/warnings.js';

/** The call fails with a ProblemError of this status; returns its problem for further checks. */
export async function expectProblem(call: Promise<unknown>, status: number): Promise<ProblemDetail> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected a ProblemError ${status}`).toBeInstanceOf(ProblemError);
  const { problem } = error as ProblemError;
  expect(problem.status).toBe(status);
  expect(problem.type).toMatch(/\S/);
  expect(problem.title).toMatch(/\S/);
  return problem;
}

/** The 400 violations of a call (a ProblemError of another status fails). */
export const violationsOf = async (promise: Promise<unknown>) => (await expectProblem(promise, 400)).violations ?? [];
export const fields = (problem: ProblemDetail): string[] => (problem.violations ?? []).map((violation) => violation.field).sort();

export const LANE = { pickupAddress: { zipCode: '60601', countryCode: 'US' }, deliveryAddress: { zipCode: '10001', countryCode: 'US' } } as const;

export const COMPONENT = { palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } };

/** A valid request, with overrides that may make it invalid on purpose (the API parses it at run time). */
export function quoteRequest(overrides: Record<string, unknown> = {}): QuoteRequestInput {
  return { ...LANE, orderComponents: [COMPONENT], ...overrides } as QuoteRequestInput;
}

export const SHIPPER = { name: 'Acme Tools', address1: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zipCode: '60601', countryCode: 'US' };
export const CONSIGNEE = { name: 'Hudson Supply', address1: '350 5th Ave', city: 'New York', state: 'NY', zipCode: '10001', countryCode: 'US' };

export function shipmentRequest(overrides: Record<string, unknown> = {}): ShipmentRequestInput {
  return { pickupAddress: SHIPPER, deliveryAddress: CONSIGNEE, orderComponents: [COMPONENT], ...overrides } as ShipmentRequestInput;
}

/** The messages of the warnings that are not the freight check's (the check has its own cases). */
export const messagesOf = (warnings: readonly Warning[]): string[] => warnings.filter((item) => !isFreightCheckCode(item.code)).map((item) => item.message);
