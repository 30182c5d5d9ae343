/** The hazmat basic description as shipping papers print it; free of zod, so the CLI's views can print it without loading the schemas. */
export interface HazmatDescription {
  unNumber: string;
  properShippingName: string;
  hazardClass: string;
  packingGroup: string | null;
}

/** `UN1203, Gasoline, 3, PG II`: the basic description in the order 49 CFR 172.202(b) requires. */
export function hazmatBasicDescription(hazmat: HazmatDescription): string {
  return [hazmat.unNumber, hazmat.properShippingName, hazmat.hazardClass, hazmat.packingGroup ? `PG ${hazmat.packingGroup}` : null]
    .filter((part): part is string => part !== null)
    .join(', ');
}
