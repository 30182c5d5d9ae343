/**
 * `--shipper` / `--consignee` values: the name of a saved location (`shipper location add`), or an
 * address written inline as key=value pairs:
 *   name=Acme DC,address1=1 Main St,city=Chicago,state=IL,zip=60601[,address2=,contact=,phone=,country=US]
 * Values pass through raw: the API's address schema decides what is valid and names the field.
 */
import { didYouMean } from '../domain/didYouMean.js';
import { UsageError } from './errors.js';
import { splitKeyValuePairs } from './keyValueSpec.js';

const KEYS: Record<string, string> = {
  name: 'name',
  company: 'name',
  street: 'address1',
  street1: 'address1',
  address: 'address1',
  address1: 'address1',
  street2: 'address2',
  address2: 'address2',
  city: 'city',
  state: 'state',
  zip: 'zipCode',
  zipcode: 'zipCode',
  postalcode: 'zipCode',
  postal: 'zipCode',
  country: 'countryCode',
  countrycode: 'countryCode',
  contact: 'contactPerson',
  contactname: 'contactPerson',
  contactperson: 'contactPerson',
  phone: 'phoneNumber',
  phonenumber: 'phoneNumber',
};

/** " (did you mean weight?)" when a key of the spec is close to the one typed. */
const suggestion = (key: string): string => {
  const meant = didYouMean(key, ['name', 'address1', 'address2', 'city', 'state', 'zip', 'country', 'contact', 'phone', ...new Set(Object.values(KEYS))]);
  return meant ? ` (did you mean ${meant}?)` : '';
};

export const ADDRESS_SPEC_EXAMPLE = 'name="Acme DC",address1="1 Main St",city=Chicago,state=IL,zip=60601';

/** An address spec has at least one key=value pair; anything else is a saved location's name. */
export function isAddressSpec(value: string): boolean {
  return /^\s*[A-Za-z][A-Za-z0-9]*\s*=/.test(value);
}

export function parseAddressSpec(spec: string, flag: string): Record<string, string> {
  const address: Record<string, string> = {};
  for (const pair of splitKeyValuePairs(spec, flag)) {
    const equals = pair.indexOf('=');
    if (equals === -1) throw new UsageError(`"${pair}" is not key=value (in ${flag} ${spec})`, `example: ${flag} ${ADDRESS_SPEC_EXAMPLE}`);
    const key = pair.slice(0, equals).trim();
    const field = KEYS[key.toLowerCase()];
    if (!field) {
      throw new UsageError(`unknown key "${key}"${suggestion(key)} in ${flag} ${spec}`, 'keys: name, address1, address2, city, state, zip, country, contact, phone');
    }
    address[field] = pair.slice(equals + 1).trim();
  }
  return address;
}
