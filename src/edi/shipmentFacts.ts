/**
 * Facts about a shipment that every carrier file needs, derived once: who pays and is billed,
 * packaging codes, NMFC item and sub, US phone numbers, the local delivery day. Pure.
 */
import { utcDateOf } from '../domain/dates.js';
import type { Address, Shipment } from '../domain/schemas.js';

/** Who is billed for the freight: the shipper (prepaid), the consignee (collect) or the third party. */
export function billToAddress(shipment: Shipment): Address {
  const { terms, billTo } = shipment.freightChargeTerms;
  if (terms === 'THIRD_PARTY' && billTo) return billTo;
  return terms === 'COLLECT' ? shipment.deliveryAddress : shipment.pickupAddress;
}

/** Field path of the bill-to address, for messages. */
export function billToField(shipment: Shipment): string {
  const { terms } = shipment.freightChargeTerms;
  return terms === 'THIRD_PARTY' ? 'freightChargeTerms.billTo' : terms === 'COLLECT' ? 'deliveryAddress' : 'pickupAddress';
}

export const hasHazmat = (shipment: Shipment): boolean => shipment.orderComponents.some((component) => component.hazmat);

// ---------------------------------------------------------------------------------------------
// Packaging: the shipment's free text ("cartons", "CTN", "Boxes") to the codes of each format.

export type PackagingKind =
  | 'bag'
  | 'bale'
  | 'barrel'
  | 'bin'
  | 'box'
  | 'bucket'
  | 'bundle'
  | 'can'
  | 'carton'
  | 'case'
  | 'coil'
  | 'container'
  | 'crate'
  | 'cylinder'
  | 'drum'
  | 'jar'
  | 'kit'
  | 'loose'
  | 'package'
  | 'pail'
  | 'pallet'
  | 'piece'
  | 'rack'
  | 'reel'
  | 'roll'
  | 'skid'
  | 'tote'
  | 'tube';

/** Words (singular, plural and the common 3-letter codes) for each kind. */
const PACKAGING_WORDS: Record<PackagingKind, readonly string[]> = {
  bag: ['bag', 'bags', 'sack', 'sacks'],
  bale: ['bale', 'bales', 'bal'],
  barrel: ['barrel', 'barrels', 'bbl'],
  bin: ['bin', 'bins'],
  box: ['box', 'boxes', 'bx'],
  bucket: ['bucket', 'buckets', 'bxt'],
  bundle: ['bundle', 'bundles', 'bdl'],
  can: ['can', 'cans'],
  carton: ['carton', 'cartons', 'ctn', 'ctns'],
  case: ['case', 'cases', 'cas'],
  coil: ['coil', 'coils', 'col'],
  container: ['container', 'containers', 'cnt'],
  crate: ['crate', 'crates', 'crt'],
  cylinder: ['cylinder', 'cylinders', 'cyl'],
  drum: ['drum', 'drums', 'drm'],
  jar: ['jar', 'jars'],
  kit: ['kit', 'kits'],
  loose: ['loose', 'lse'],
  package: ['package', 'packages', 'pkg', 'pkgs', 'parcel', 'parcels'],
  pail: ['pail', 'pails'],
  pallet: ['pallet', 'pallets', 'plt', 'plts', 'pat'],
  piece: ['piece', 'pieces', 'pcs', 'pc', 'each', 'units', 'unit'],
  rack: ['rack', 'racks', 'rck'],
  reel: ['reel', 'reels', 'rel'],
  roll: ['roll', 'rolls', 'rol'],
  skid: ['skid', 'skids', 'skd'],
  tote: ['tote', 'totes', 'tbn'],
  tube: ['tube', 'tubes', 'tbe'],
};

const KIND_BY_WORD = new Map<string, PackagingKind>(Object.entries(PACKAGING_WORDS).flatMap(([kind, words]) => words.map((word) => [word, kind as PackagingKind] as const)));

/** The kind named by a packaging text, or null when it names none we know. */
export function packagingKind(text: string | null | undefined): PackagingKind | null {
  if (!text) return null;
  return KIND_BY_WORD.get(text.trim().toLowerCase()) ?? null;
}

/** X12 Packaging Form Code (element 211). */
export const X12_PACKAGING_CODES: Record<PackagingKind, string> = {
  bag: 'BAG',
  bale: 'BAL',
  barrel: 'BBL',
  bin: 'BIN',
  box: 'BOX',
  bucket: 'BXT',
  bundle: 'BDL',
  can: 'CAN',
  carton: 'CTN',
  case: 'CAS',
  coil: 'COL',
  container: 'CNT',
  crate: 'CRT',
  cylinder: 'CYL',
  drum: 'DRM',
  jar: 'JAR',
  kit: 'KIT',
  loose: 'LSE',
  package: 'PKG',
  pail: 'PAL',
  pallet: 'PLT',
  piece: 'PCS',
  rack: 'RCK',
  reel: 'REL',
  roll: 'ROL',
  skid: 'SKD',
  tote: 'TBN',
  tube: 'TBE',
};

/** eBOL 2.1 Packaging_Types / Handling_Unit_Types: X12's codes but for the pallet, PAT there (PAL is a pail in both). */
export const EBOL_PACKAGING_CODES: Record<PackagingKind, string> = { ...X12_PACKAGING_CODES, pallet: 'PAT' };

// ---------------------------------------------------------------------------------------------

/** "61680-03", "61680 sub 3", "61680" -> item and sub; other text is kept whole as the item. */
export function splitNmfc(code: string | null | undefined): { item: string; sub: string | null } | null {
  if (!code || !code.trim()) return null;
  const match = /^\s*(\d{1,6})(?:\s*(?:-|\s|sub)\s*(?:sub\s*)?(\d{1,2}))?\s*$/i.exec(code);
  if (!match) return { item: code.trim(), sub: null };
  return { item: match[1]!, sub: match[2] === undefined ? null : String(Number(match[2])) };
}

/** A US phone number as 10 digits and an extension, or null when the text is not one. */
export function usPhone(text: string | null | undefined): { digits: string; extension: string | null } | null {
  if (!text) return null;
  const match = /^(.*?)(?:\s*(?:x|ext\.?|extension|#)\s*(\d{1,6}))?\s*$/i.exec(text.trim());
  const main = match?.[1] ?? '';
  if (/[^\d\s().+-]/.test(main)) return null;
  let digits = main.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length !== 10) return null;
  return { digits, extension: match?.[2] ?? null };
}

/**
 * The destination's local day of the estimated delivery. The ETA instant is 17:00 local at the
 * destination, and every US zone is 4 to 10 hours behind UTC, so 12 hours before it is still the
 * same local day in UTC: no time-zone table needed.
 */
export function localDeliveryDate(estimatedDeliveryDate: string | null): string | null {
  if (!estimatedDeliveryDate) return null;
  const instant = Date.parse(estimatedDeliveryDate);
  if (Number.isNaN(instant)) return null;
  return utcDateOf(new Date(instant - 12 * 3_600_000));
}

/** "HH:MM" -> "HHMM" (X12 time). */
export const x12Time = (time: string): string => time.replace(':', '');
/** "YYYY-MM-DD" -> "YYYYMMDD" (X12 date). */
export const x12Date = (date: string): string => date.replaceAll('-', '');
