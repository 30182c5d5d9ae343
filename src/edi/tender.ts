/**
 * One entry point for `shipper tender ID --format ebol|x12-204|x12-211` and its HTTP route: the
 * file for the carrier's systems, its media type and a file name, or the violations that keep it
 * from being written. Pure: the caller loads the shipment and the settings and, for X12, takes
 * the control numbers from a store counter so that they never repeat.
 */
import type { Shipment } from '../domain/schemas.js';
import { ebolRequestForShipment } from './ebol.js';
import type { CarrierFileResult } from './result.js';
import type { EbolSettings, X12InterchangeSettings } from './settings.js';
import type { X12ControlNumbers } from './x12.js';
import { writeX12LoadTender } from './x12-204.js';
import { writeX12BillOfLading } from './x12-211.js';

export const TENDER_FORMATS = ['ebol', 'x12-204', 'x12-211'] as const;
export type TenderFormat = (typeof TENDER_FORMATS)[number];

export type TenderRequest =
  | { format: 'ebol'; shipment: Shipment; settings: EbolSettings }
  | { format: 'x12-204' | 'x12-211'; shipment: Shipment; settings: X12InterchangeSettings; control: X12ControlNumbers; createdAt: Date };

export interface TenderFile {
  format: TenderFormat;
  /** application/json for the eBOL, application/edi-x12 (RFC 1767) for X12. */
  contentType: string;
  /** `<BOL number>.ebol.json`, `<BOL number>.204.edi`, `<BOL number>.211.edi`. */
  fileName: string;
  body: string;
}

export function tenderFile(request: TenderRequest): CarrierFileResult<TenderFile> {
  const { shipment } = request;
  if (request.format === 'ebol') {
    const result = ebolRequestForShipment(shipment, request.settings);
    if (!result.ok) return result;
    return {
      ok: true,
      document: { format: 'ebol', contentType: 'application/json', fileName: `${shipment.bolNumber}.ebol.json`, body: `${JSON.stringify(result.document, null, 2)}\n` },
      warnings: result.warnings,
    };
  }
  const write = request.format === 'x12-204' ? writeX12LoadTender : writeX12BillOfLading;
  const result = write({ shipment, settings: request.settings, control: request.control, createdAt: request.createdAt });
  if (!result.ok) return result;
  return {
    ok: true,
    document: { format: request.format, contentType: 'application/edi-x12', fileName: `${shipment.bolNumber}.${request.format.slice(4)}.edi`, body: result.document },
    warnings: result.warnings,
  };
}
