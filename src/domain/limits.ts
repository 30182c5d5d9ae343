/** Request limits shared by the zod schemas and the CLI, kept free of zod so the CLI's start-up stays light. */
import { groupedDigits } from './numberText.js';

export const MAX_TRANSIT_DESTINATIONS = 1000;
export const MAX_TRANSIT_PICKUP_DAYS = 60;
/**
 * Lanes x pickup days of one transit request: what bounds its answer (about 340 bytes of JSON per
 * lane and day, closed days included: at most about 1.7 MB; 1,000 lanes x 60 days was 20.6 MB).
 * 1,000 lanes for one day, 100 lanes for 50 days, 1,000 lanes for 5 days fit.
 */
export const MAX_TRANSIT_LANE_DAYS = 5000;
/** Shipments per request of the batch extensions (POST /v1/shipper/shipment-batch, /shipment-preview). */
export const MAX_BATCH_ITEMS = 500;
/**
 * Order components over all the items of one batch request (one shipment has at most 60):
 * bounds the work and the answer of one request (500 items of 60 lines would be 30,000).
 */
export const MAX_BATCH_COMPONENTS = 5000;
/** Idempotency keys (header or body): printable ASCII, no spaces, at most 255 characters; hashed, never a file name. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;
/** Pages of the list operations. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 500;

/**
 * What one booking can physically be: the freight of one 53 ft dry van, the largest trailer an LTL
 * or truckload carrier sends. Beyond these a request is refused (a violation naming the limit);
 * freight within them but beyond standard LTL quotes with a warning (BEYOND_LTL below).
 */
export const FREIGHT_LIMITS = {
  /** A handling unit smaller than an inch in any direction is not freight on a pallet. */
  minDimensionInches: 1,
  /** Inside length of a 53 ft trailer: 53 x 12 = 636 in. */
  maxLengthInches: 636,
  /** Legal trailer width (102 in); a unit wider than that cannot be loaded, so its longer side is its length. */
  maxWidthInches: 102,
  /** Inside height of a high-cube 53 ft dry van. */
  maxHeightInches: 110,
  /** Carriers weigh and bill freight in whole pounds; a line under a pound is not LTL freight. */
  minPoundsWeight: 1,
  /** Legal payload of a 53 ft trailer under the 80,000 lb federal gross weight limit; per line and per shipment. */
  maxPoundsWeight: 45_000,
  /** A 53 ft trailer holds 30 pallets (40x48, loaded turned) on the floor, 60 double-stacked; per line and per shipment. */
  maxHandlingUnits: 60,
  /** Packages inside the handling units: the five digits of the BOL's package column. */
  maxPieceCount: 99_999,
  /** Every line has at least one handling unit, so a shipment has at most as many lines as units. */
  maxOrderComponents: 60,
} as const;

/**
 * Where standard LTL ends (the shipment still quotes, on the LTL tariff, with a warning): carriers
 * move more pallets, more weight or longer freight as volume LTL or truckload, at their own price.
 */
export const BEYOND_LTL = {
  /** More handling units than this in one shipment. */
  maxPallets: 12,
  /** More pounds than this in one shipment. */
  maxPounds: 20_000,
  /** A unit longer than a trailer is wide (102 in) cannot be loaded across: over-dimensional freight. */
  maxLengthInches: 102,
} as const;

/** 45000 -> "45,000", 45000.5 -> "45,000.5": numbers in messages are written as people write them. */
export function formatLimit(value: number): string {
  // Below 1,000 there is no separator to add (most numbers of a warning's words: feet, inches, pallets).
  if (Math.abs(value) < 1000) return String(value);
  const [whole, fraction] = String(value).split('.');
  return `${groupedDigits(whole!)}${fraction === undefined ? '' : `.${fraction}`}`;
}
