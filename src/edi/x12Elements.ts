/**
 * The X12 004010 elements shipper writes (204 load tender, 211 bill of lading, their envelope) and
 * reads (210 freight bill), each with its minimum and maximum length from the 004010 element
 * dictionary: the one table every writer takes its limits from, and against which every element
 * written is checked before a file is handed out. For numeric types (N0, N2, R) the lengths count
 * digits only, as X12 counts them (no sign, no decimal point). Pure.
 */
import type { Violation } from '../domain/schemas.js';
import type { X12Segment } from './x12Types.js';

export type X12ElementType = 'AN' | 'ID' | 'N0' | 'N2' | 'R' | 'DT' | 'TM';

export interface X12ElementSpec {
  name: string;
  type: X12ElementType;
  min: number;
  max: number;
}

const e = (name: string, type: X12ElementType, min: number, max: number): X12ElementSpec => ({ name, type, min, max });

/** By segment tag and position: `N102` is the second element of N1. */
export const X12_ELEMENTS = {
  // Envelope (the ISA's elements are fixed-width and written apart).
  GS01: e('Functional Identifier Code', 'ID', 2, 2),
  GS02: e("Application Sender's Code", 'AN', 2, 15),
  GS03: e("Application Receiver's Code", 'AN', 2, 15),
  GS04: e('Date', 'DT', 8, 8),
  GS05: e('Time', 'TM', 4, 8),
  GS06: e('Group Control Number', 'N0', 1, 9),
  GS07: e('Responsible Agency Code', 'ID', 1, 2),
  GS08: e('Version / Release / Industry Identifier Code', 'AN', 1, 12),
  ST01: e('Transaction Set Identifier Code', 'ID', 3, 3),
  ST02: e('Transaction Set Control Number', 'AN', 4, 9),
  SE01: e('Number of Included Segments', 'N0', 1, 10),
  SE02: e('Transaction Set Control Number', 'AN', 4, 9),
  GE01: e('Number of Transaction Sets Included', 'N0', 1, 6),
  GE02: e('Group Control Number', 'N0', 1, 9),
  IEA01: e('Number of Included Functional Groups', 'N0', 1, 5),
  IEA02: e('Interchange Control Number', 'N0', 9, 9),

  // 204 beginning segment and the set purpose (204, 211).
  B202: e('Standard Carrier Alpha Code', 'ID', 2, 4),
  B204: e('Shipment Identification Number', 'AN', 1, 30),
  B206: e('Shipment Method of Payment', 'ID', 2, 2),
  B2A01: e('Transaction Set Purpose Code', 'ID', 2, 2),

  // 211 beginning segment and remarks.
  BOL01: e('Standard Carrier Alpha Code', 'ID', 2, 4),
  BOL02: e('Shipment Method of Payment', 'ID', 2, 2),
  BOL03: e('Shipment Identification Number', 'AN', 1, 30),
  BOL04: e('Date', 'DT', 8, 8),
  BOL06: e('Reference Identification', 'AN', 1, 30),
  BOL10: e('Shipment Method of Payment', 'ID', 2, 2),
  K101: e('Free-form Message', 'AN', 1, 30),
  K102: e('Free-form Message', 'AN', 1, 30),

  // References, notes, dates and handling (204, 211).
  L1101: e('Reference Identification', 'AN', 1, 30),
  L1102: e('Reference Identification Qualifier', 'ID', 2, 3),
  NTE01: e('Note Reference Code', 'ID', 3, 3),
  NTE02: e('Description', 'AN', 1, 80),
  G6201: e('Date Qualifier', 'ID', 2, 2),
  G6202: e('Date', 'DT', 8, 8),
  G6203: e('Time Qualifier', 'ID', 1, 2),
  G6204: e('Time', 'TM', 4, 8),
  G6205: e('Time Code', 'ID', 2, 2),
  AT501: e('Special Handling Code', 'ID', 2, 3),
  AT502: e('Special Services Code', 'ID', 2, 10),
  AT503: e('Special Handling Description', 'AN', 2, 30),

  // Parties (204, 211).
  N101: e('Entity Identifier Code', 'ID', 2, 3),
  N102: e('Name', 'AN', 1, 60),
  N201: e('Name', 'AN', 1, 60),
  N202: e('Name', 'AN', 1, 60),
  N301: e('Address Information', 'AN', 1, 55),
  N302: e('Address Information', 'AN', 1, 55),
  N401: e('City Name', 'AN', 2, 30),
  N402: e('State or Province Code', 'ID', 2, 2),
  N403: e('Postal Code', 'ID', 3, 15),
  N404: e('Country Code', 'ID', 2, 3),
  G6101: e('Contact Function Code', 'ID', 2, 2),
  G6102: e('Name', 'AN', 1, 60),
  G6103: e('Communication Number Qualifier', 'ID', 2, 2),
  G6104: e('Communication Number', 'AN', 1, 80),

  // 204 stops and line items.
  S501: e('Stop Sequence Number', 'N0', 1, 3),
  S502: e('Stop Reason Code', 'ID', 2, 2),
  S503: e('Weight', 'R', 1, 10),
  S504: e('Weight Unit Code', 'ID', 1, 1),
  S505: e('Number of Units Shipped', 'R', 1, 10),
  S506: e('Unit or Basis for Measurement Code', 'ID', 2, 2),
  OID01: e('Reference Identification', 'AN', 1, 30),
  OID02: e('Purchase Order Number', 'AN', 1, 22),
  OID04: e('Unit or Basis for Measurement Code', 'ID', 2, 2),
  OID05: e('Quantity', 'R', 1, 15),
  OID06: e('Weight Unit Code', 'ID', 1, 1),
  OID07: e('Weight', 'R', 1, 10),
  LAD01: e('Packaging Form Code', 'ID', 3, 3),
  LAD02: e('Lading Quantity', 'N0', 1, 7),
  L501: e('Lading Line Item Number', 'N0', 1, 3),
  L502: e('Lading Description', 'AN', 1, 50),
  L503: e('Commodity Code', 'AN', 1, 30),
  L504: e('Commodity Code Qualifier', 'ID', 1, 1),
  L508: e('Commodity Code Qualifier', 'ID', 1, 1),
  L509: e('Commodity Code', 'AN', 1, 30),
  AT801: e('Weight Qualifier', 'ID', 1, 2),
  AT802: e('Weight Unit Code', 'ID', 1, 1),
  AT803: e('Weight', 'R', 1, 10),
  AT805: e('Lading Quantity', 'N0', 1, 7),
  L301: e('Weight', 'R', 1, 10),
  L302: e('Weight Qualifier', 'ID', 1, 2),
  L311: e('Lading Quantity', 'N0', 1, 7),
  L312: e('Weight Unit Code', 'ID', 1, 1),
  L314: e('Declared Value', 'N2', 2, 12),
  L315: e('Rate/Value Qualifier', 'ID', 2, 2),

  // 211 line items.
  AT101: e('Lading Line Item Number', 'N0', 1, 3),
  AT401: e('Lading Description', 'AN', 1, 50),
  AT201: e('Lading Quantity', 'N0', 1, 7),
  AT202: e('Packaging Form Code', 'ID', 3, 3),
  AT203: e('Weight Qualifier', 'ID', 1, 2),
  AT204: e('Weight Unit Code', 'ID', 1, 1),
  AT205: e('Weight', 'R', 1, 10),
  AT206: e('Lading Quantity', 'N0', 1, 7),
  AT207: e('Packaging Form Code', 'ID', 3, 3),
  AT209: e('Commodity Code', 'AN', 1, 30),
  AT210: e('Freight Class Code', 'AN', 2, 5),

  // Hazardous material (204, 211).
  LH101: e('Unit or Basis for Measurement Code', 'ID', 2, 2),
  LH102: e('Lading Quantity', 'N0', 1, 7),
  LH103: e('UN/NA Identification Code', 'ID', 6, 6),
  LH110: e('Packing Group Code', 'ID', 1, 3),
  LH201: e('Hazardous Classification', 'AN', 1, 7),
  LH202: e('Hazardous Class Qualifier', 'ID', 1, 1),
  LH301: e('Hazardous Material Shipping Name', 'AN', 1, 25),
  LH302: e('Hazardous Material Shipping Name Qualifier', 'ID', 1, 1),

  // 210 freight bills (read by the audit, src/audit/x12Bills.ts).
  B302: e('Invoice Number', 'AN', 1, 22),
  B303: e('Shipment Identification Number', 'AN', 1, 30),
  B304: e('Shipment Method of Payment', 'ID', 2, 2),
  B305: e('Weight Unit Code', 'ID', 1, 1),
  B306: e('Date', 'DT', 8, 8),
  B307: e('Net Amount Due', 'N2', 1, 12),
  B311: e('Standard Carrier Alpha Code', 'ID', 2, 4),
  C301: e('Currency Code', 'ID', 3, 3),
  N901: e('Reference Identification Qualifier', 'ID', 2, 3),
  N902: e('Reference Identification', 'AN', 1, 30),
  LX01: e('Assigned Number', 'N0', 1, 6),
  L001: e('Lading Line Item Number', 'N0', 1, 3),
  L002: e('Billed/Rated-as Quantity', 'R', 1, 11),
  L003: e('Billed/Rated-as Qualifier', 'ID', 2, 2),
  L004: e('Weight', 'R', 1, 10),
  L005: e('Weight Qualifier', 'ID', 1, 2),
  L008: e('Lading Quantity', 'N0', 1, 7),
  L009: e('Packaging Form Code', 'ID', 3, 3),
  L011: e('Weight Unit Code', 'ID', 1, 1),
  L101: e('Lading Line Item Number', 'N0', 1, 3),
  L102: e('Freight Rate', 'R', 1, 9),
  L103: e('Rate/Value Qualifier', 'ID', 2, 2),
  L104: e('Charge', 'N2', 1, 12),
  L108: e('Special Charge or Allowance Code', 'ID', 3, 3),
  L701: e('Lading Line Item Number', 'N0', 1, 3),
  L707: e('Freight Class Code', 'AN', 2, 5),
  L305: e('Charge', 'N2', 1, 12),
} as const satisfies Record<string, X12ElementSpec>;

export type X12ElementId = keyof typeof X12_ELEMENTS;

/** `N102`: the element at `position` (1-based) of a segment. */
export const elementId = (tag: string, position: number): string => `${tag}${String(position).padStart(2, '0')}`;

/** An element value's length as X12 counts it: digits only for numeric types. */
export function x12Length(value: string, type: X12ElementType): number {
  return type === 'N0' || type === 'N2' || type === 'R' ? value.replace(/[^0-9]/g, '').length : value.length;
}

/**
 * Every element of the segments against the table: one violation per element that is not in it
 * (nothing is written unchecked) or whose length is outside its minimum and maximum. Empty
 * elements are absent and not checked.
 */
export function checkElementLengths(segments: readonly X12Segment[]): Violation[] {
  const violations: Violation[] = [];
  for (const [tag, ...elements] of segments) {
    elements.forEach((value, index) => {
      if (value === '') return;
      const id = elementId(tag, index + 1);
      const spec = (X12_ELEMENTS as Record<string, X12ElementSpec>)[id];
      if (!spec) {
        violations.push({ field: id, reason: `${id} is not an element shipper knows the 004010 length of` });
        return;
      }
      const length = x12Length(value, spec.type);
      if (length < spec.min || length > spec.max) {
        violations.push({ field: id, reason: `${JSON.stringify(value)} has ${length} characters; ${id} (${spec.name}) holds ${spec.min} to ${spec.max}` });
      }
    });
  }
  return violations;
}
