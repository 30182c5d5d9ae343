/**
 * The freight check's re-rating by a carrier agreement: the same agreement, lane, pickup day,
 * accessorials and diesel price as the quote recorded, on other freight (the risk class, the
 * raised weight), so the price at stake is what that carrier would bill. Pure.
 */
import type { Rerate } from '../freightCheck.js';
import type { AgreementRating } from '../pricedBy.js';
import { priceWithAgreement, type CarrierAgreement } from './rateAgreement.js';

export interface RecordedLane {
  originZip: string;
  destinationZip: string;
  pickupDate: string;
  accessorials: readonly string[];
  pricedBy: Pick<AgreementRating, 'fuel'>;
}

export function agreementRerate(carrier: CarrierAgreement, lane: RecordedLane): Rerate {
  const fuel = lane.pricedBy.fuel;
  // The diesel price the quote used, under the week it was read for: the same percentage again.
  const fuelPrices = new Map(fuel ? [[fuel.week, Math.round(Number(fuel.usdPerGallon) * 1000)]] : []);
  return (components) => {
    const outcome = priceWithAgreement({
      carrier,
      components,
      originZip: lane.originZip,
      destinationZip: lane.destinationZip,
      accessorials: lane.accessorials,
      pickupDate: lane.pickupDate,
      fuelPrices,
    });
    return outcome.ok ? outcome.price.quotedPriceInCents : null;
  };
}
