/**
 * The NMFTA Digital Standards eBOL 2.1 request (schema `BOL_Request` of
 * reference/nmfta-ebol-2.1.0.openapi.yaml) from a shipment. Pure.
 *
 * Where the standard and the shipment differ:
 * - weights, dimensions and the cube are whole numbers in eBOL 2.1: fractional values are rounded
 *   UP, so the request never declares less freight than was booked;
 * - phones are 10 digits (`##########`, extension apart): a phone that is not a US number is a
 *   violation on its field, and so is a missing one (origin, destination and billTo need one);
 * - each order component is one handling unit entry (its pallets) holding one line item
 *   (lineItemLayout "Nested"): the shipment knows which freight is on which pallets. The published
 *   schema also requires `commodities.lineItems` (without declaring it): it is written empty;
 * - codes are those of the standard's lists: accessorials (LFTD, IDL, MNC...), packaging (CTN,
 *   PAT for pallets...), payment terms, classes (every class of the 13-subprovision scale is in
 *   its list).
 */
import type { Address, Shipment, Violation } from '../domain/schemas.js';
import { warning, type Warning } from '../domain/warnings.js';
import { hazmatBasicDescription } from '../domain/hazmatDescription.js';
import type { CarrierFileResult } from './result.js';
import type { EbolSettings } from './settings.js';
import { billToAddress, billToField, EBOL_PACKAGING_CODES, hasHazmat, localDeliveryDate, packagingKind, splitNmfc, usPhone } from './shipmentFacts.js';
import { dollarsText } from '../domain/money.js';
import { freightTotals } from '../domain/freightTotals.js';

export const EBOL_VERSION = '2.1.0';

/** Our accessorial codes (the shipped tariff's) and the eBOL 2.1 Accessorial_Codes. */
export const EBOL_ACCESSORIAL_CODES: Readonly<Record<string, string>> = {
  LIFTGATE_PICKUP: 'LFTP',
  LIFTGATE_DELIVERY: 'LFTD',
  RESIDENTIAL_PICKUP: 'REP',
  RESIDENTIAL_DELIVERY: 'RES',
  INSIDE_PICKUP: 'IPU',
  INSIDE_DELIVERY: 'IDL',
  LIMITED_ACCESS_PICKUP: 'LTDAP',
  LIMITED_ACCESS_DELIVERY: 'LTDAD',
  APPOINTMENT: 'APTD',
  NOTIFY_BEFORE_DELIVERY: 'MNC',
};

const PAYMENT_TERMS = { PREPAID: 'Prepaid', COLLECT: 'Collect', THIRD_PARTY: 'Third Party' } as const;

/** The parts of BOL_Request this mapping writes (the generated JSON is validated in the tests). */
export interface EbolParty {
  account?: string;
  name: string;
  address1: string;
  address2?: string;
  city: string;
  stateProvince: string;
  postalCode: string;
  country: 'USA';
  contact: { phone: string; phoneExt?: string; name?: string };
}

export interface EbolLineItem {
  description: string;
  weight: number;
  weightUnit: 'Pounds';
  pieces: number;
  packagingType: string;
  classification: string;
  nmfc?: string;
  nmfcSub?: string;
  hazardous: boolean;
  hazardousDescription?: string;
  hazardousDetails?: { weight: number; weightUnit: 'Pounds'; class: string; unnaNumber: string; propername: string; packingGroup?: string };
  stackable: boolean;
}

export interface EbolRequest {
  bol: { function: 'Create'; requestedPickupDate: string; isTest: boolean; requestorRole: string; specialInstructions?: string };
  version: typeof EBOL_VERSION;
  referenceNumbers: {
    pro?: string;
    shipmentId: string;
    masterBol?: string;
    trailerId?: string;
    bol: string[];
    po?: Array<{ number: string; pieces?: number; weight: number; weightUnit: 'Pounds'; palletized: boolean }>;
    additionalReferences?: Array<{ name: string; value: string }>;
  };
  payment: { terms: (typeof PAYMENT_TERMS)[keyof typeof PAYMENT_TERMS] };
  commodities: {
    lineItemLayout: 'Nested';
    /** Required by the published schema beside handlingUnits; with the Nested layout every line item is in its handling unit, so it is empty. */
    lineItems: [];
    handlingUnits: Array<{
      count: number;
      type: string;
      weight: number;
      weightUnit: 'Pounds';
      length: number;
      width: number;
      height: number;
      dimensionsUnit: 'Inches';
      stackable: boolean;
      lineItems: EbolLineItem[];
    }>;
  };
  shipmentTotals: {
    grossWeight: number;
    weightUnit: 'Pounds';
    handlingUnits: number;
    cube: number;
    cubeDimensionsUnit: 'Feet';
    declaredValue?: number;
    currency?: 'USD';
  };
  accessorials?: {
    codes: string[];
    hazardousDetails?: { emergencyContact: { name: string; phone: string } };
    cod?: {
      amount: string;
      currency: 'USD';
      terms: 'Prepaid' | 'Collect';
      customerCheckAcceptable: boolean;
      remitTo: { name: string; address1: string; address2?: string; city: string; stateProvince: string; postalCode: string; country: 'USA' };
    };
    appointmentDetails?: { delivery: { start: string } };
  };
  origin: EbolParty;
  destination: EbolParty;
  billTo: EbolParty;
}

/** Whole pounds/inches/cubic feet, rounded up, at least 1. */
const wholeUp = (value: number): number => Math.max(1, Math.ceil(Math.round(value * 1000) / 1000));

export function ebolRequestForShipment(shipment: Shipment, settings: EbolSettings): CarrierFileResult<EbolRequest> {
  const violations: Violation[] = [];
  const warnings: Warning[] = [];
  if (shipment.orderStatus === 'CANCELLED') {
    return { ok: false, violations: [{ field: 'orderStatus', reason: 'the shipment is cancelled: an eBOL is created for a booked shipment (the eBOL API deletes by PRO)' }] };
  }

  const party = (address: Address, field: string, account: string | undefined, role: string): EbolParty => {
    const phone = usPhone(address.phoneNumber);
    if (!phone) {
      violations.push({
        field: `${field}.phoneNumber`,
        reason: address.phoneNumber
          ? `"${address.phoneNumber}" is not a 10-digit US phone number, which the eBOL 2.1 ${role} contact needs`
          : `the eBOL 2.1 ${role} contact needs a 10-digit phone number`,
      });
    }
    return {
      ...(account ? { account } : {}),
      name: address.name,
      address1: address.address1,
      ...(address.address2 ? { address2: address.address2 } : {}),
      city: address.city,
      stateProvince: address.state,
      postalCode: address.zipCode,
      country: 'USA',
      contact: {
        phone: phone?.digits ?? '',
        ...(phone?.extension ? { phoneExt: phone.extension } : {}),
        ...(address.contactPerson ? { name: address.contactPerson } : {}),
      },
    };
  };

  const handlingUnits = shipment.orderComponents.map((component, index) => {
    const field = `orderComponents[${index}]`;
    if (!component.description) violations.push({ field: `${field}.description`, reason: 'the eBOL 2.1 needs a description of each line item' });
    const kind = packagingKind(component.packagingType);
    if (component.packagingType && !kind)
      warnings.push(
        warning('TENDER_CODE_SUBSTITUTED', `${field}.packagingType "${component.packagingType}" has no eBOL code: written as OTH (other)`, { field: `${field}.packagingType` }),
      );
    const nmfc = splitNmfc(component.nmfcCode);
    const weight = wholeUp(component.poundsWeight);
    const hazmat = component.hazmat;
    const lineItem: EbolLineItem = {
      description: component.description ?? '',
      weight,
      weightUnit: 'Pounds',
      // Loose pieces when the shipment counts them, else the pallets themselves are the pieces.
      pieces: component.pieceCount !== null && component.pieceCount > 0 ? component.pieceCount : component.palletCount,
      packagingType: component.pieceCount !== null && component.pieceCount > 0 ? (kind ? EBOL_PACKAGING_CODES[kind] : component.packagingType ? 'OTH' : 'PCS') : 'PAT',
      classification: component.freightClass,
      ...(nmfc ? { nmfc: nmfc.item, ...(nmfc.sub ? { nmfcSub: nmfc.sub } : {}) } : {}),
      hazardous: hazmat !== null,
      ...(hazmat
        ? {
            hazardousDescription: hazmatBasicDescription(hazmat),
            hazardousDetails: {
              weight,
              weightUnit: 'Pounds' as const,
              class: hazmat.hazardClass,
              unnaNumber: hazmat.unNumber,
              propername: hazmat.properShippingName,
              ...(hazmat.packingGroup ? { packingGroup: hazmat.packingGroup } : {}),
            },
          }
        : {}),
      // The shipment says nothing about stacking: not stackable, the standard's default.
      stackable: false,
    };
    return {
      count: component.palletCount,
      type: EBOL_PACKAGING_CODES.pallet,
      weight,
      weightUnit: 'Pounds' as const,
      length: wholeUp(component.dimensions.length),
      width: wholeUp(component.dimensions.width),
      height: wholeUp(component.dimensions.height),
      dimensionsUnit: 'Inches' as const,
      stackable: false,
      lineItems: [lineItem],
    };
  });

  const totals = freightTotals(shipment.orderComponents);
  const codes: string[] = [];
  for (const code of shipment.accessorials) {
    const ebolCode = EBOL_ACCESSORIAL_CODES[code];
    if (!ebolCode) warnings.push(warning('TENDER_FIELD_DROPPED', `accessorial ${code} has no eBOL 2.1 code: left out`, { field: 'accessorials' }));
    else codes.push(ebolCode);
  }
  const deliveryDay = localDeliveryDate(shipment.estimatedDeliveryDate);
  let appointmentDetails: NonNullable<EbolRequest['accessorials']>['appointmentDetails'];
  if (codes.includes('APTD')) {
    // APTD needs the requested delivery day: the quote's estimated delivery day at the destination.
    if (deliveryDay) appointmentDetails = { delivery: { start: `${deliveryDay}T00:00:00.000` } };
    else {
      codes.splice(codes.indexOf('APTD'), 1);
      warnings.push(
        warning('TENDER_FIELD_DROPPED', 'APPOINTMENT left out of the eBOL: APTD needs a delivery date and the lane has no estimated delivery', { field: 'accessorials' }),
      );
    }
  }
  let hazardousDetails: NonNullable<EbolRequest['accessorials']>['hazardousDetails'];
  if (hasHazmat(shipment)) {
    codes.push('HAZ');
    const phone = usPhone(shipment.emergencyContactPhone);
    if (!phone) {
      violations.push({
        field: 'emergencyContactPhone',
        reason: shipment.emergencyContactPhone
          ? `"${shipment.emergencyContactPhone}" is not a 10-digit US phone number, which the eBOL 2.1 emergency contact needs`
          : 'a hazardous line needs the emergency contact phone',
      });
    }
    hazardousDetails = { emergencyContact: { name: settings.emergencyContactName ?? shipment.pickupAddress.name, phone: phone?.digits ?? '' } };
  }
  let cod: NonNullable<EbolRequest['accessorials']>['cod'];
  if (shipment.cod) {
    codes.push('COD');
    const remitTo = shipment.pickupAddress;
    cod = {
      amount: dollarsText(shipment.cod.amountInCents),
      currency: 'USD',
      terms: shipment.cod.feeTerms === 'PREPAID' ? 'Prepaid' : 'Collect',
      customerCheckAcceptable: shipment.cod.customerCheckAcceptable,
      remitTo: {
        name: remitTo.name,
        address1: remitTo.address1,
        ...(remitTo.address2 ? { address2: remitTo.address2 } : {}),
        city: remitTo.city,
        stateProvince: remitTo.state,
        postalCode: remitTo.zipCode,
        country: 'USA',
      },
    };
  }
  if (shipment.declaredValue?.per === 'POUND')
    warnings.push(
      warning('TENDER_FIELD_DROPPED', 'the declared value is per pound: eBOL 2.1 has only a total (shipmentTotals.declaredValue), left out', { field: 'declaredValue' }),
    );
  // eBOL 2.1 times a pickup only as an appointment (APTP); the window's ready time is the requested pickup.
  if (shipment.pickupWindow) {
    warnings.push(
      warning(
        'TENDER_FIELD_DROPPED',
        `the dock's close time ${shipment.pickupWindow.closeTime} has no place in eBOL 2.1 without a pickup appointment: only the ready time is sent (bol.requestedPickupDate)`,
        { field: 'pickupWindow.closeTime' },
      ),
    );
  }
  if (shipment.fob)
    warnings.push(warning('TENDER_FIELD_DROPPED', `FOB ${shipment.fob.toLowerCase()} has no place in eBOL 2.1: left out (the printed BOL shows it)`, { field: 'fob' }));

  const billTo = billToAddress(shipment);
  const billToAccount =
    shipment.freightChargeTerms.terms === 'THIRD_PARTY'
      ? settings.accounts.billTo
      : shipment.freightChargeTerms.terms === 'COLLECT'
        ? settings.accounts.consignee
        : settings.accounts.shipper;
  const request: EbolRequest = {
    bol: {
      function: 'Create',
      requestedPickupDate: `${shipment.requiredPickupDate}T${shipment.pickupWindow ? `${shipment.pickupWindow.readyTime}:00.000` : '00:00:00.000'}`,
      isTest: settings.isTest,
      requestorRole: settings.requestorRole,
      ...(shipment.specialInstructions ? { specialInstructions: shipment.specialInstructions } : {}),
    },
    version: EBOL_VERSION,
    referenceNumbers: {
      ...(shipment.proNumber ? { pro: shipment.proNumber } : {}),
      shipmentId: shipment.orderNumber,
      ...(shipment.masterBol ? { masterBol: shipment.bolNumber } : {}),
      ...(shipment.trailerNumber ? { trailerId: shipment.trailerNumber } : {}),
      bol: [shipment.bolNumber],
      ...(shipment.refNumber
        ? {
            po: [
              {
                number: shipment.refNumber,
                ...(totals.pieces ? { pieces: totals.pieces } : {}),
                weight: wholeUp(totals.poundsWeight),
                weightUnit: 'Pounds' as const,
                palletized: true,
              },
            ],
          }
        : {}),
      ...(shipment.sealNumbers.length > 0 ? { additionalReferences: shipment.sealNumbers.map((seal) => ({ name: 'Seal Number', value: seal })) } : {}),
    },
    payment: { terms: PAYMENT_TERMS[shipment.freightChargeTerms.terms] },
    commodities: { lineItemLayout: 'Nested', lineItems: [], handlingUnits },
    shipmentTotals: {
      grossWeight: wholeUp(totals.poundsWeight),
      weightUnit: 'Pounds',
      handlingUnits: totals.pallets,
      cube: wholeUp(totals.cubicFeet),
      cubeDimensionsUnit: 'Feet',
      ...(shipment.declaredValue?.per === 'SHIPMENT' ? { declaredValue: Math.ceil(shipment.declaredValue.amountInCents / 100), currency: 'USD' as const } : {}),
    },
    ...(codes.length > 0 || appointmentDetails || hazardousDetails || cod
      ? { accessorials: { codes, ...(hazardousDetails ? { hazardousDetails } : {}), ...(cod ? { cod } : {}), ...(appointmentDetails ? { appointmentDetails } : {}) } }
      : {}),
    origin: party(shipment.pickupAddress, 'pickupAddress', settings.accounts.shipper, 'origin'),
    destination: party(shipment.deliveryAddress, 'deliveryAddress', settings.accounts.consignee, 'destination'),
    billTo: party(billTo, billToField(shipment), billToAccount, 'billTo'),
  };
  // The bill-to is the shipper or the consignee unless the terms are third party: one violation per field.
  const unique = violations.filter((violation, index) => violations.findIndex((other) => other.field === violation.field) === index);
  if (unique.length > 0) return { ok: false, violations: unique };
  return { ok: true, document: request, warnings };
}
