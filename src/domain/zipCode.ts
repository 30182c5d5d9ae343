/**
 * US ZIP codes: what is written as one, and the port through which a ZIP becomes a place (the
 * geodata in geo/zipDirectory.ts implements it; the engine, the CLI and the wizard take it). Pure.
 */

/** 5 digits, or ZIP+4 with or without its hyphen: `10001`, `10001-1234`, `100011234`. */
export const ZIP_CODE_PATTERN = /^\d{5}(?:-?\d{4})?$/;

/** True when the text (trimmed by the caller) is a ZIP code as ZIP_CODE_PATTERN writes it. */
export function isZipCode(text: string): boolean {
  return ZIP_CODE_PATTERN.test(text);
}

/** The 5-digit ZIP that text starts with (`60601` of `60601-1234` or `606011234`); undefined when it starts otherwise. */
export function leadingZip5(text: string): string | undefined {
  return /^\d{5}/.exec(text)?.[0];
}

/** A US ZIP resolved from geodata. */
export interface ZipPlace {
  zipCode: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  timeZone: string;
}

/** The ZIP look-up port: the place of a ZIP (or of the first 5 digits of a ZIP+4), undefined when none is known. */
export interface ZipLookup<Place = ZipPlace> {
  lookup(zipCode: string): Place | undefined;
}
