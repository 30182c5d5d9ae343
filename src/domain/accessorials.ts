/**
 * The accessorial services the engine prices (GET /v1/shipper/accessorials): the tariff's, with
 * their charges, and those of the carrier agreements loaded, with each carrier's charge; and the
 * carriers whose agreements are loaded, which a quote request can name (carrierScac). What a
 * client needs to offer the choices without knowing where the service keeps its prices (the
 * quote wizard, in both modes). Pure: zod only.
 */
import { z } from 'zod';
import type { Agreement } from './agreements/agreement.js';
import type { Tariff } from './tariff.js';

const cents = z.number().int().min(0);

const carrierChargeSchema = z.object({
  scac: z.string(),
  amountInCents: cents.nullable().meta({ description: 'The flat charge; null when it goes by the longest unit (byLength)' }),
  byLength: z
    .array(z.object({ atLeastInches: z.number(), amountInCents: cents }))
    .nullable()
    .meta({ description: 'OVERLENGTH: the charge of the longest unit, by the longest tier it reaches' }),
});

export const accessorialListSchema = z.object({
  items: z
    .array(
      z.object({
        code: z.string().meta({ example: 'LIFTGATE_DELIVERY' }),
        description: z.string().nullable().meta({ description: "The tariff's description, else the first agreement's that has one" }),
        amountInCents: cents.nullable().meta({ description: 'The charge of the tariff (quotes without carrierScac); null: the tariff does not price it' }),
        carriers: z.array(carrierChargeSchema).meta({ description: 'The carrier agreements that price it, with their charges' }),
      }),
    )
    .meta({ description: "The tariff's codes in its order, then those only carrier agreements price, by code" }),
  carriers: z
    .array(z.object({ scac: z.string(), name: z.string(), agreement: z.string() }))
    .meta({ description: 'The carriers whose agreements are loaded (empty without): a quote request names one with carrierScac, POST /v1/shipper/rates asks them all' }),
});
export type AccessorialList = z.output<typeof accessorialListSchema>;

/** The list from the tariff and the agreements loaded (in their order). */
export function accessorialList(
  tariff: Pick<Tariff, 'accessorials'>,
  agreements: ReadonlyArray<Pick<Agreement, 'scac' | 'carrierName' | 'agreement' | 'accessorials'>>,
): AccessorialList {
  const agreementOnly = [...new Set(agreements.flatMap((agreement) => Object.keys(agreement.accessorials)))].filter((code) => !Object.hasOwn(tariff.accessorials, code)).sort();
  const items = [...Object.keys(tariff.accessorials), ...agreementOnly].map((code) => {
    const charges = agreements.flatMap((agreement) => {
      const charge = Object.hasOwn(agreement.accessorials, code) ? agreement.accessorials[code] : undefined;
      return charge ? [{ agreement, charge }] : [];
    });
    const tariffCharge = Object.hasOwn(tariff.accessorials, code) ? tariff.accessorials[code] : undefined;
    return {
      code,
      description: tariffCharge?.description ?? charges.find(({ charge }) => charge.description !== undefined)?.charge.description ?? null,
      amountInCents: tariffCharge?.amountInCents ?? null,
      carriers: charges.map(({ agreement, charge }) => ({ scac: agreement.scac, amountInCents: charge.amountInCents ?? null, byLength: charge.byLength ?? null })),
    };
  });
  return { items, carriers: agreements.map((agreement) => ({ scac: agreement.scac, name: agreement.carrierName, agreement: agreement.agreement })) };
}
