/**
 * An address against its ZIP's place (geodata): the state must agree, the city should. Pure.
 *
 * A ZIP lies in one state, except the few whose delivery area crosses a state line: for those the
 * neighbouring state is accepted too. A state that contradicts the ZIP is refused: the carrier
 * routes by ZIP, so a wrong state means a wrong address on the BOL (or a wrong ZIP, and so a
 * wrong lane and price). A city that is not the ZIP's USPS city is only a warning: USPS accepts
 * other names for many ZIPs (neighbourhoods, former towns, vanity names).
 */
import type { Violation } from './schemas.js';
import { warning, type Warning } from './warnings.js';

/**
 * ZIPs whose area lies in two states: the multi-state ZIP Code Tabulation Areas of the 2010 US
 * Census (ZCTA-to-place relationship file), each with the states it covers. The geodata gives the
 * first state; the others are accepted on an address with that ZIP.
 */
export const CROSS_STATE_ZIPS: Readonly<Record<string, { states: readonly string[]; where: string }>> = {
  '02861': { states: ['RI', 'MA'], where: 'Pawtucket, RI, reaching into Attleboro, MA' },
  '42223': { states: ['KY', 'TN'], where: 'Fort Campbell, an Army post on the Kentucky-Tennessee line' },
  '59221': { states: ['MT', 'ND'], where: 'Fairview, MT, on the North Dakota line' },
  '63673': { states: ['MO', 'IL'], where: 'Saint Mary, MO, serving Kaskaskia, IL, west of the Mississippi' },
  '71749': { states: ['AR', 'LA'], where: 'Junction City, a town split by the Arkansas-Louisiana line' },
  '73949': { states: ['OK', 'TX'], where: 'Texhoma, a town split by the Oklahoma-Texas line' },
  '81137': { states: ['CO', 'NM'], where: 'Ignacio, CO, reaching into New Mexico' },
  '84536': { states: ['UT', 'AZ'], where: 'Monument Valley, UT, on the Navajo Nation across the Arizona line' },
  '86044': { states: ['AZ', 'UT'], where: 'Tonalea, AZ, on the Navajo Nation across the Utah line' },
  '86515': { states: ['AZ', 'NM'], where: 'Window Rock, AZ, on the Navajo Nation across the New Mexico line' },
  '88063': { states: ['NM', 'TX'], where: 'Sunland Park, NM, reaching into El Paso County, TX' },
  '89439': { states: ['NV', 'CA'], where: 'Verdi, NV, reaching into California' },
  '97635': { states: ['OR', 'CA'], where: 'New Pine Creek, OR, reaching into Modoc County, CA' },
};

/** The ZIP's place as the geodata names it. */
export interface ZipPlaceName {
  zipCode: string;
  city: string;
  state: string;
}

/** The parts of an address compared with the ZIP (as sent: the state may still be lower case). */
export interface AddressPlace {
  city?: unknown;
  state?: unknown;
}

export interface AddressZipCheck {
  violations: Violation[];
  warnings: Warning[];
}

/** The states an address with this ZIP may name. */
export function statesOfZip(place: ZipPlaceName): readonly string[] {
  return CROSS_STATE_ZIPS[place.zipCode]?.states ?? [place.state];
}

/**
 * `party` is the field path of the address (`pickupAddress`, `deliveryAddress`; '' for a bare address such as
 * a saved location's flags). Fields that are not strings are left to the schema.
 */
export function checkAddressAgainstZip(address: AddressPlace, place: ZipPlaceName, party: string): AddressZipCheck {
  const field = (name: string) => (party ? `${party}.${name}` : name);
  const violations: Violation[] = [];
  const warnings: Warning[] = [];
  const state = typeof address.state === 'string' ? address.state.trim().toUpperCase() : '';
  if (/^[A-Z]{2}$/.test(state) && !statesOfZip(place).includes(state)) {
    const states = statesOfZip(place);
    violations.push({
      field: field('state'),
      reason: `${state} does not match ZIP ${place.zipCode}, which is in ${place.city}, ${place.state}${states.length > 1 ? ` (or ${states.slice(1).join(', ')})` : ''}; correct the state or the ZIP`,
    });
  }
  const city = typeof address.city === 'string' ? address.city.trim() : '';
  // The same text in any case has the same key (cityKey starts by upper-casing): most addresses are written as the ZIP's city.
  if (city !== '' && city.toUpperCase() !== place.city.toUpperCase() && cityKey(city) !== cityKey(place.city)) {
    warnings.push(
      warning(
        'ADDRESS_CITY_MISMATCH',
        `${city} is not the USPS city of ZIP ${place.zipCode} (${place.city}, ${place.state}); check the address, carriers route by the ZIP (${field('city')})`,
        {
          field: field('city'),
        },
      ),
    );
  }
  return { violations, warnings };
}

/** Abbreviations written both ways in city names: "St. Louis" = "Saint Louis", "Ft Worth" = "Fort Worth". */
const CITY_WORDS: Record<string, string> = { ST: 'SAINT', STE: 'SAINTE', FT: 'FORT', MT: 'MOUNT', PT: 'POINT' };

/** A city name reduced to what tells cities apart: letters in upper case, common abbreviations spelt out. */
export function cityKey(city: string): string {
  return city
    .toUpperCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Z0-9]+/)
    .filter(Boolean)
    .map((word) => CITY_WORDS[word] ?? word)
    .join('');
}
