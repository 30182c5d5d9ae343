/** Checks of single answers (pure; the same messages as the API where the API has one). */
import { checkAddressAgainstZip, type ZipPlaceName } from '../../domain/addressZip.js';
import { militaryMailReason } from '../../domain/militaryZip.js';
import { addressSchema, orderComponentInputSchema } from '../../domain/schemas.js';
import { decimalNumber } from '../../domain/numberText.js';
import { formatFieldPath } from '../../domain/validation.js';
import { isZipCode, leadingZip5 } from '../../domain/zipCode.js';
import { readNumberCell } from '../../import/cells.js';
import type { WizardDeps } from './deps.js';
import type { Validation } from './prompter.js';

export const STANDARD_PALLET = '48x40x48';

export function zipProblem(value: string, field: string, zips: WizardDeps['zips']): Validation {
  const zip = value.trim();
  if (!isZipCode(zip)) return `a ZIP code is 5 digits, e.g. 60601 (${field})`;
  const place = zips.lookup(zip);
  if (!place) return `unknown ZIP ${zip.slice(0, 5)} (${field})`;
  const military = militaryMailReason(place.zipCode, place.state);
  return military ? `${military} (${field})` : true;
}

/** "Chicago, IL" under a ZIP as it is typed, or why it is not one yet. */
export function zipHint(value: string, zips: WizardDeps['zips']): string {
  const zip = value.trim();
  const zip5 = leadingZip5(zip);
  if (!zip5) return '';
  const place = zips.lookup(zip5);
  return place ? `${place.city}, ${place.state}` : 'unknown ZIP';
}

/** "48x40x48" -> dimensions; null when it is not three numbers. */
export function parseDimensions(value: string): { length: number; width: number; height: number } | null {
  const parts = value.trim().split(/\s*[xX*×]\s*/);
  const numbers = parts.map(decimalNumber);
  if (numbers.length !== 3 || numbers.some((part) => part === undefined)) return null;
  const [length, width, height] = numbers as [number, number, number];
  return { length, width, height };
}

/** "1,200", "1200 lb" -> 1200; anything else is passed on for the schema to name. */
export function readNumber(value: string): number | string {
  const text = value.trim().replace(/\s*(lbs?|pounds?|in|inches)\.?$/i, '');
  // The importer's number syntax: 1200, 1,200, 40.5; never 0x4B0.
  const reading = readNumberCell(text);
  return reading && 'value' in reading && typeof reading.value === 'number' ? reading.value : value.trim();
}

const PLACEHOLDER_COMPONENT = { palletCount: 1, poundsWeight: 1, dimensions: { length: 1, width: 1, height: 1 } };

/**
 * The API schema's verdict on one field of an order component: the same rule and message as a
 * request would get, e.g. "pieceCount must be 0 or more (orderComponents[0].pieceCount)".
 */
export function componentFieldProblem(field: string, value: unknown, index: number): Validation {
  const result = orderComponentInputSchema.safeParse({ ...PLACEHOLDER_COMPONENT, [field]: value });
  if (result.success) return true;
  const issue = result.error.issues.find((candidate) => candidate.path[0] === field);
  if (!issue) return true;
  return `${issue.message.replace(/^Invalid input: /, '')} (${formatFieldPath(['orderComponents', index, ...issue.path])})`;
}

export function addressFieldProblem(field: keyof typeof addressSchema.shape, value: string, path: string): Validation {
  const result = addressSchema.shape[field].safeParse(value);
  return result.success ? true : `${result.error.issues[0]?.message ?? 'is not valid'} (${path}.${field})`;
}

/** The state as the API judges it: a 2-letter code that agrees with the ZIP of the quoted lane. */
export function addressStateProblem(value: string, place: ZipPlaceName, path: string): Validation {
  const form = addressFieldProblem('state', value, path);
  if (form !== true) return form;
  const [violation] = checkAddressAgainstZip({ state: value }, place, path).violations;
  return violation ? `${violation.reason} (${violation.field})` : true;
}
