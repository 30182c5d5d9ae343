/**
 * APO, FPO and DPO ZIPs: USPS military mail, filed under the "states" AA (Armed Forces Americas),
 * AE (Europe, Middle East, Africa, Canada) and AP (Pacific). Their points in the geodata are
 * overseas bases; freight carriers do not deliver there (military mail goes through the postal
 * system), so a quote or booking to or from one is refused with the reason, never priced. Pure.
 */
const MILITARY_MAIL: Record<string, string> = {
  AA: 'Armed Forces Americas',
  AE: 'Armed Forces Europe',
  AP: 'Armed Forces Pacific',
};

/** Why a ZIP of this state takes no freight, or null when it is an ordinary place. */
export function militaryMailReason(zip: string, state: string): string | null {
  const region = MILITARY_MAIL[state];
  if (!region) return null;
  return `ZIP ${zip} is an APO/FPO military mail ZIP (${state}, ${region}): LTL carriers do not deliver to military post offices; ship to the unit's US address or its freight forwarder`;
}
