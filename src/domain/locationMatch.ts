/**
 * Saved locations found for what a user typed: a mistyped name ("did you mean chicago-dc?"), and
 * the locations near a ZIP (the same ZIP, the same city, the same 3-digit ZIP prefix) that the
 * wizard offers. Pure: the locations are passed in.
 */
import { didYouMean } from './didYouMean.js';

export interface NamedPlace {
  name: string;
  address: { zipCode: string; city: string; state: string };
}

/** The saved location's name a mistyped one most likely means, or undefined when none is close. */
export function closestLocationName(typed: string, names: ReadonlyArray<string>): string | undefined {
  const exact = names.find((name) => name.toLowerCase() === typed.trim().toLowerCase());
  return exact ?? didYouMean(typed.trim(), names);
}

/**
 * The saved locations at a place: `same`, those at its ZIP; `near`, those at another ZIP of the
 * same city (and state) or of the same 3-digit ZIP prefix (a dock at 60608 for a pickup typed as
 * 60609), nearest first (the same prefix before the same city alone), then by name.
 */
export function locationsNear<T extends NamedPlace>(locations: ReadonlyArray<T>, place: { zipCode: string; city: string; state: string }): { same: T[]; near: T[] } {
  const zip5 = place.zipCode.slice(0, 5);
  const sameCity = (location: T) => location.address.city.trim().toLowerCase() === place.city.toLowerCase() && location.address.state.toUpperCase() === place.state.toUpperCase();
  const samePrefix = (location: T) => location.address.zipCode.slice(0, 3) === zip5.slice(0, 3);
  const same = locations.filter((location) => location.address.zipCode.slice(0, 5) === zip5);
  const rank = (location: T) => (samePrefix(location) ? 0 : 1);
  const near = locations
    .filter((location) => location.address.zipCode.slice(0, 5) !== zip5 && (samePrefix(location) || sameCity(location)))
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  return { same, near };
}
