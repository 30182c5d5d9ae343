/** What the wizard is given (the shell wires real parts, tests scripted ones) and what it returns. */
import type { ShipperApi } from '../../api/types.js';
import type { CarrierProfiles } from '../../domain/carrierProfile.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import type { Address, Quote, Shipment } from '../../domain/schemas.js';
import type { SavedLocation } from '../../store/locations.js';
import type { IO } from '../output.js';
import type { Prompter } from './prompter.js';

export interface AccessorialChoice {
  code: string;
  description: string;
  /** The tariff's charge; absent when the tariff does not price it, or the service does not say. */
  amountInCents?: number | undefined;
  /** The carriers whose agreements price it (SCACs). */
  carriers?: ReadonlyArray<string> | undefined;
}

/** What the wizard needs of saved locations (LocationBook). */
export interface LocationDirectory {
  list(): Promise<SavedLocation[]>;
  get(name: string): Promise<SavedLocation | undefined>;
  save(name: string, address: Address): Promise<unknown>;
}

export interface WizardDeps {
  prompter: Prompter;
  api: ShipperApi;
  io: IO;
  zips: ZipLookup;
  locations: LocationDirectory;
  now: () => Date;
  accessorials: ReadonlyArray<AccessorialChoice>;
  /** Where a relative PDF path is resolved. */
  resolvePath: (path: string) => string;
  fileExists: (path: string) => boolean;
  writeFile: (path: string, bytes: Uint8Array) => Promise<void>;
  /** The carriers' settings (names by SCAC, PRO blocks) for the carrier step; none: {}. */
  carriers?: CarrierProfiles | undefined;
  /** The carriers whose agreements are loaded (--tariffs): the wizard offers to price with them. */
  agreementCarriers?: ReadonlyArray<{ scac: string; name: string }> | undefined;
}

/** Answers already given as flags (`shipper quote -i --from 60601 ...`): defaults or skipped steps. */
export interface WizardDefaults {
  from?: string | undefined;
  to?: string | undefined;
  pickupDate?: string | undefined;
  accessorials: string[];
  /** Parsed --component specs: when present the freight lines are not asked. */
  components: Array<Record<string, unknown>>;
}

export interface WizardResult {
  quote: Quote;
  shipment?: Shipment;
  bolFile?: string;
}
