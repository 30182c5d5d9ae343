/**
 * `--component pallets=2,weight=1200,dims=48x40x48[,desc=...,nmfc=...,pkg=...,pieces=10]` to the
 * API's OrderComponent JSON. Values are passed on raw-ish (numbers when they look like numbers) so
 * that the zod schema, not this parser, decides what is valid and names the field.
 */
import { didYouMean } from '../domain/didYouMean.js';
import { readNumberCell } from '../import/cells.js';
import { UsageError } from './errors.js';
import { splitKeyValuePairs } from './keyValueSpec.js';

const KEYS: Record<string, string> = {
  pallets: 'palletCount',
  palletcount: 'palletCount',
  weight: 'poundsWeight',
  poundsweight: 'poundsWeight',
  lbs: 'poundsWeight',
  dims: 'dimensions',
  dimensions: 'dimensions',
  palletdims: 'palletDimensions',
  palletdimensions: 'palletDimensions',
  desc: 'description',
  description: 'description',
  nmfc: 'nmfcCode',
  nmfccode: 'nmfcCode',
  pkg: 'packagingType',
  packaging: 'packagingType',
  packagingtype: 'packagingType',
  pieces: 'pieceCount',
  piececount: 'pieceCount',
  stackable: 'stackable',
  stack: 'stackable',
  class: 'freightClass',
  freightclass: 'freightClass',
  un: 'hazmat.unNumber',
  unnumber: 'hazmat.unNumber',
  psn: 'hazmat.properShippingName',
  propershippingname: 'hazmat.properShippingName',
  hazclass: 'hazmat.hazardClass',
  hazardclass: 'hazmat.hazardClass',
  pg: 'hazmat.packingGroup',
  packinggroup: 'hazmat.packingGroup',
};

/** The keys a suggestion may name: the short ones and the API's field names, as they are written. */
const SUGGESTED_KEYS = [
  ...['pallets', 'weight', 'dims', 'desc', 'nmfc', 'pkg', 'pieces', 'stackable', 'un', 'psn', 'hazclass', 'pg'],
  ...new Set(Object.values(KEYS).map((field) => field.replace('hazmat.', ''))),
];
const SIDES = ['length', 'width', 'height'];

/** " (did you mean weight?)" when a key of the spec is close to the one typed; a side goes in dims. */
const suggestion = (key: string): string => {
  const meant = didYouMean(key, [...SUGGESTED_KEYS, ...SIDES]);
  if (meant === undefined) return '';
  return SIDES.includes(meant) ? ' (length, width and height go in dims=LxWxH)' : ` (did you mean ${meant}?)`;
};
const TEXT_FIELDS = new Set(['description', 'nmfcCode', 'packagingType']);

export const COMPONENT_SPEC_EXAMPLE = 'pallets=2,weight=1200,dims=48x40x48,desc="Machine parts",nmfc=161030,pkg=crates,pieces=10';
/** A hazardous line: the basic description of 49 CFR 172.202 as four more keys. */
export const HAZMAT_SPEC_EXAMPLE = 'pallets=1,weight=400,dims=48x40x40,desc="Paint",un=UN1263,psn=Paint,hazclass=3,pg=III';

/** A number as the CSV importer reads one (`1200`, `1,200`, `40.5`; never `0x1F4`), else the text for the schema to name. */
function numberOrRaw(value: string): number | string {
  const trimmed = value.trim();
  const reading = readNumberCell(trimmed);
  return reading && 'value' in reading ? reading.value : trimmed;
}

function parseDims(value: string, spec: string): [number | string, number | string, number | string] {
  const parts = value.split(/[xX*]/).map((part) => part.trim());
  if (parts.length !== 3 || parts.some((part) => part === '')) {
    throw new UsageError(`dimensions must be LENGTHxWIDTHxHEIGHT in inches, e.g. 48x40x48 (in --component ${spec})`);
  }
  return parts.map(numberOrRaw) as [number | string, number | string, number | string];
}

export function parseComponentSpec(spec: string): Record<string, unknown> {
  const component: Record<string, unknown> = {};
  for (const pair of splitKeyValuePairs(spec, '--component')) {
    const equals = pair.indexOf('=');
    if (equals === -1) throw new UsageError(`"${pair}" is not key=value (in --component ${spec})`, `example: --component ${COMPONENT_SPEC_EXAMPLE}`);
    const key = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1);
    const field = KEYS[key.toLowerCase()];
    if (!field) {
      throw new UsageError(
        `unknown key "${key}"${suggestion(key)} in --component ${spec}`,
        'keys: pallets, weight, dims, desc, nmfc, pkg, pieces, stackable (true/false), and for hazardous material un, psn, hazclass, pg (palletDims is the deprecated spelling of dims)',
      );
    }
    if (field === 'dimensions') {
      const [length, width, height] = parseDims(value, spec);
      component.dimensions = { length, width, height };
    } else if (field === 'palletDimensions') {
      component.palletDimensions = parseDims(value, spec);
    } else if (field.startsWith('hazmat.')) {
      const hazmat = (component.hazmat ??= {}) as Record<string, string>;
      hazmat[field.slice('hazmat.'.length)] = value.trim();
    } else if (field === 'stackable') {
      // true/false (yes/no): anything else goes to the schema as typed, which names it.
      const word = value.trim().toLowerCase();
      component.stackable = ['true', 'yes', 'y'].includes(word) ? true : ['false', 'no', 'n'].includes(word) ? false : value.trim();
    } else if (TEXT_FIELDS.has(field)) {
      component[field] = value.trim();
    } else {
      component[field] = numberOrRaw(value);
    }
  }
  return component;
}

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/**
 * Warnings about lines typed with -c, for stderr: "line 1: no description..." read as line 1 of a
 * CSV file (as `shipper check` and the import name them), so a line given by a -c says which:
 * "line 1 (the 1st -c): ...". Lines past the -c flags given (a quote's, kept by `ship --quote`)
 * keep "line N". --json answers keep the API's words.
 */
export function namingComponentFlags<W extends { message: string }>(warnings: readonly W[], flags: number): W[] {
  return warnings.map((item) => {
    const line = /^line (\d+): /.exec(item.message);
    const number = line ? Number(line[1]) : 0;
    return number >= 1 && number <= flags ? { ...item, message: `line ${number} (the ${ordinal(number)} -c): ${item.message.slice(line![0].length)}` } : item;
  });
}
