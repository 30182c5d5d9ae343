/**
 * The contract suite: one set of cases that every ShipperApi must pass, run once against the local
 * engine in this process and once through RemoteApi against a `shipper serve` child process.
 *
 * Each case file in ./cases/ (named `*.case.ts`) default-exports a ContractCase; they are found
 * by glob, so a new area (CSV import, BOL) is added by adding one file there.
 */
/// <reference types="vite/client" />
import { afterAll, beforeAll, describe } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import type { ShipperApi } from '../../src/api/types.js';

/**
 * The settings both targets run with (LocalApi options; the server's config file): a carrier with
 * a PRO block and a pickup cut-off, and the X12 sender id, so the carrier cases can write files.
 */
export const CONTRACT_SETTINGS = {
  carriers: {
    ODFL: {
      name: 'Old Dominion Freight Line',
      pickupCutoff: '15:00',
      proRange: { scac: 'ODFL', first: '70000000', last: '70000999', checkDigit: 'MOD7' as const, prefix: '' },
    },
  },
  x12: { senderId: 'ACMESHIP', usage: 'test' },
};

/** The fixed start of the clock in both modes (a Monday afternoon, UTC). */
export const CONTRACT_NOW = '2026-11-23T15:00:00.000Z';

export interface ContractTarget {
  mode: 'local' | 'remote';
  api: ShipperApi;
  /** The store behind the API: cases may seed it directly, e.g. with quotes from the past. */
  storeDir: string;
  /** A LocalApi on the same store whose clock starts `msAgo` before CONTRACT_NOW. */
  pastApi(msAgo: number): LocalApi;
}

export type ContractCase = (target: () => ContractTarget) => void;

export interface ContractSetup {
  target: ContractTarget;
  teardown(): Promise<void>;
}

const cases = import.meta.glob<{ default: ContractCase }>('./cases/*.case.ts', { eager: true });

export function defineContractSuite(name: string, setup: () => Promise<ContractSetup>): void {
  describe(name, () => {
    let current: ContractSetup | undefined;
    beforeAll(async () => {
      current = await setup();
    });
    afterAll(async () => {
      await current?.teardown();
    });
    const target = () => {
      if (!current) throw new Error('the contract target is not set up');
      return current.target;
    };
    for (const file of Object.keys(cases).sort()) cases[file]!.default(target);
  });
}

export function pastApiFactory(storeDir: string) {
  return (msAgo: number) => {
    const start = Date.parse(CONTRACT_NOW) - msAgo;
    const offset = start - Date.now();
    return new LocalApi({ storeDir, now: () => new Date(Date.now() + offset) });
  };
}

/** The clock both modes run on: CONTRACT_NOW, then running. */
export function contractClock(): () => Date {
  const offset = Date.parse(CONTRACT_NOW) - Date.now();
  return () => new Date(Date.now() + offset);
}
