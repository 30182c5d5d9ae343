/**
 * The same CLI commands, once on the local engine (`--store`) and once in remote mode
 * (`--remote` to a `shipper serve` on another store): same exit codes, same messages on
 * stderr, the same JSON on stdout (ids and instants aside). Commands of other areas (ship,
 * shipment, import, bol) join by adding scenarios to SCENARIOS.
 *
 * The CLI runs in process in both modes (main() with its own streams and env; the server is a real
 * `shipper serve`): what differs between the halves is the ShipperApi behind the CLI, not the
 * process. That the built binary and main() in process agree is test/cli/inProcess.test.ts.
 */
import { fileURLToPath } from 'node:url';
import { withoutFreightCheck } from '../helpers/freightCheck.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { testDatabase } from '../helpers/postgres.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { CONTRACT_NOW } from './suite.js';
import { withContact } from '../helpers/fixtures.js';

interface Scenario {
  name: string;
  /** Arguments; `{quote}` is replaced by the id of a quote created in that mode beforehand. */
  args: string[];
  code: number;
  /** Runs after the scenarios of earlier phases, one at a time (lists depend on what came before). */
  phase?: 2;
  env?: Record<string, string>;
}

/**
 * Every local CLI run starts its SHIPPER_NOW clock afresh, so quotes of runs close together have
 * ids of about the same instant; the quote that must be the newest one in a list is made an hour
 * later on that clock (the same pickup day).
 */
const LATER = { SHIPPER_NOW: new Date(Date.parse(CONTRACT_NOW) + 3600_000).toISOString() };
/** The same for the second booking, which `shipment list` must show as the newer one. */
const SOON = { SHIPPER_NOW: new Date(Date.parse(CONTRACT_NOW) + 1800_000).toISOString() };

const COMPONENT = 'pallets=2,weight=1200,dims=48x40x48,desc=Machine parts,pieces=0';
const SHIPPER = withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60601');
const CONSIGNEE = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001');
const SAMPLE_CSV = fileURLToPath(new URL('../../templates/import/shipments-sample.csv', import.meta.url));
const SAMPLE_BILLS = fileURLToPath(new URL('../../templates/audit/bills-sample.csv', import.meta.url));
const SCENARIOS: Scenario[] = [
  { name: 'quote', args: ['quote', '--from', '60601', '--to', '10001', '-c', COMPONENT, '--json'], code: 0 },
  { name: 'quote, people output', args: ['quote', '--from', '60601', '--to', '10001', '-c', COMPONENT, '-a', 'liftgate-delivery'], code: 0 },
  { name: 'quote with deprecated palletDims', args: ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,palletDims=48x40x48,desc=Parts', '--json'], code: 0 },
  { name: 'quote with violations', args: ['quote', '--from', '60601', '--to', '1000', '-c', 'pallets=0,weight=-5,dims=48x40x0,pieces=-1,desc=Parts'], code: 1 },
  { name: 'quote with violations, --json', args: ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48,class=70,desc=Parts', '--json'], code: 1 },
  { name: 'quote get', args: ['quote', 'get', '{quote}', '--json'], code: 0 },
  { name: 'quote get, people output', args: ['quote', 'get', '{quote}'], code: 0 },
  { name: 'quote get unknown', args: ['quote', 'get', 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z'], code: 4 },
  { name: 'bol --templates', args: ['bol', '--templates', '--json'], code: 0 },
  { name: 'bol of an unknown shipment', args: ['bol', 'sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z', '-o', '{tmp}/x.pdf'], code: 4 },
  { name: 'transit table', args: ['transit', '--from', '60601', '--to', '10001,90012', '--to', '99501', '--days', '3'], code: 0 },
  { name: 'transit table, --json', args: ['transit', '--from', '60601', '--to', '10001', '--json'], code: 0 },
  { name: 'transit table, --csv', args: ['transit', '--from', '60601', '--to', '10001', '--days', '2', '--csv'], code: 0 },
  { name: 'transit with an unknown ZIP', args: ['transit', '--from', '60601', '--to', '10001,00000'], code: 1 },
  {
    name: 'ship with violations',
    args: ['ship', '--shipper', `${SHIPPER},state=ZZ`, '--consignee', 'name=Nobody', '-c', 'pallets=1,weight=500,dims=48x40x48,class=70,desc=Parts'],
    code: 1,
  },
  { name: 'ship on an unknown quote', args: ['ship', '--quote', 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z', '--shipper', SHIPPER, '--consignee', CONSIGNEE], code: 4 },
  { name: 'shipment get unknown', args: ['shipment', 'get', 'sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z', '--json'], code: 4 },
  { name: 'import of a file that is not CSV', args: ['import', 'package.json'], code: 1 },
  // Invoices and the audit of carriers' bills (issue 17); audits are not saved (remote mode's local store is the user's).
  { name: 'invoice of an unknown shipment', args: ['invoice', 'sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z'], code: 4 },
  // Exit 6: read and audited, something disputed (issue 20, item 20).
  { name: 'audit of the sample bills, no shipment has their PROs', args: ['audit', SAMPLE_BILLS, '--no-save', '--json'], code: 6 },
  // Phase 2, in order: bookings take order and BOL numbers from one counter.
  { name: 'ship on a quote', args: ['ship', '--quote', '{quote}', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '--ref', 'PO-1', '--json'], code: 0, phase: 2 },
  {
    name: 'ship, quoting first, people output',
    args: ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', COMPONENT, '-a', 'LIFTGATE_DELIVERY', '--idempotency-key', 'ship-1'],
    code: 0,
    phase: 2,
    env: SOON,
  },
  {
    name: 'ship again with the same idempotency key',
    args: ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', COMPONENT, '-a', 'LIFTGATE_DELIVERY', '--idempotency-key', 'ship-1', '--json'],
    code: 0,
    phase: 2,
    env: SOON,
  },
  { name: 'shipment list', args: ['shipment', 'list', '--limit', '2', '--json'], code: 0, phase: 2 },
  { name: 'shipment list, people output', args: ['shipment', 'list', '--limit', '2'], code: 0, phase: 2 },
  { name: 'import the sample CSV', args: ['import', SAMPLE_CSV, '--json'], code: 0, phase: 2 },
  { name: 'import the sample CSV again (nothing new)', args: ['import', SAMPLE_CSV], code: 0, phase: 2 },
  {
    name: 'quote, last before the list',
    args: ['quote', '--from', '30301', '--to', '98101', '-c', 'pallets=1,weight=300,dims=40x48x40,desc=Parts', '--json'],
    code: 0,
    phase: 2,
    env: LATER,
  },
  { name: 'quote list', args: ['quote', 'list', '--limit', '1', '--json'], code: 0, phase: 2 },
  { name: 'quote list, people output', args: ['quote', 'list', '--limit', '1'], code: 0, phase: 2 },
  // Booking integrity (issue 11): limits, the beyond-LTL warning, addresses against their ZIP, ETAs in the real zone.
  // Last and one at a time: they add no load to the parallel phase and come after the lists.
  { name: 'quote over the freight limits', args: ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=61,weight=1e308,dims=637x48x0.5,desc=Parts'], code: 1, phase: 2 },
  { name: 'quote beyond standard LTL', args: ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=13,weight=21000,dims=48x40x48,desc=Parts', '--json'], code: 0, phase: 2 },
  { name: 'ship with a state against the ZIP', args: ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE.replace('state=NY', 'state=NJ'), '-c', COMPONENT], code: 1, phase: 2 },
  { name: 'quote to the Hopi Reservation in summer', args: ['quote', '--from', '86001', '--to', '86039', '--pickup-date', '2027-07-13', '-c', COMPONENT], code: 0, phase: 2 },
];

const env = { SHIPPER_NOW: CONTRACT_NOW, SHIPPER_CONFIG_DIR: undefined as string | undefined };

/** `{tmp}` in arguments: a temporary directory (nothing is written there when a scenario fails). */
let scratch = '';

/** Ids, instants and the request path (`instance`, set by the server) differ between runs. */
function normalise(text: string): string {
  return (
    text
      .replace(/qt_[0-9A-Z]{26}/g, 'qt_ID')
      .replace(/sh_[0-9A-Z]{26}/g, 'sh_ID')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, 'INSTANT')
      .replace(/(valid until|open until|expired) \w{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2} [A-Z]{3,4}/g, '$1 TIME')
      .replace(/,\n\s*"instance": "[^"]*"/g, '')
      // What only a server's answer has: its reason code and the request's id, named after the message.
      .replace(/ \((?:reason [a-z_]+, )?request [0-9a-f-]{36}\)/g, '')
  );
}

/** The stores both halves run on: directories (the file store), then PostgreSQL databases (docs/postgres.md). */
const BACKENDS = [
  {
    name: '',
    async stores() {
      const local = await tempDir();
      const remote = await tempDir();
      return { local: local.dir, remote: remote.dir, cleanups: [local.cleanup, remote.cleanup] };
    },
  },
  {
    name: ' on PostgreSQL',
    async stores() {
      const [local, remote] = await Promise.all([testDatabase(), testDatabase()]);
      // The server migrates its database at start-up; the local CLI asks for it to be migrated first.
      const migrated = await runInProcess(['--store', local, 'db', 'migrate'], { env });
      if (migrated.code !== 0) throw new Error(migrated.stderr);
      return { local, remote, cleanups: [] };
    },
  },
];

describe.each(BACKENDS)('contract: the CLI, local and remote$name', (backend) => {
  let server: ServeProcess;
  const dirs: Array<() => Promise<void>> = [];
  const results: Record<'local' | 'remote', CliResult[]> = { local: [], remote: [] };

  beforeAll(async () => {
    const stores = await backend.stores();
    const config = await tempDir();
    dirs.push(...stores.cleanups, config.cleanup);
    env.SHIPPER_CONFIG_DIR = config.dir;
    scratch = config.dir;
    server = await startServe({ store: stores.remote, env: { SHIPPER_NOW: CONTRACT_NOW } });
    // Remote: `--remote` with the server's URL from SHIPPER_BASE_URL (--base-url is tested elsewhere).
    const modes = {
      local: { args: ['--store', stores.local], env: {} },
      remote: { args: ['--remote'], env: { SHIPPER_BASE_URL: server.url } },
    } as const;
    for (const mode of ['local', 'remote'] as const) {
      const { args, env: modeEnv } = modes[mode];
      const seed = await runInProcess([...args, 'quote', '--from', '60601', '--to', '10001', '-c', COMPONENT, '--json'], { env: { ...env, ...modeEnv } });
      const quoteId = (JSON.parse(seed.stdout) as { id: string }).id;
      const run = (scenario: Scenario) =>
        runInProcess([...args, ...scenario.args.map((arg) => arg.replace('{quote}', quoteId).replace('{tmp}', scratch))], { env: { ...env, ...modeEnv, ...scenario.env } });
      // Phase 1 (independent scenarios), then phase 2 in order; in-process runs take turns.
      const first = await Promise.all(SCENARIOS.map((scenario) => (scenario.phase ? undefined : run(scenario))));
      for (const [index, scenario] of SCENARIOS.entries()) if (scenario.phase) first[index] = await run(scenario);
      results[mode] = first as CliResult[];
    }
  });

  afterAll(async () => {
    await server?.stop();
    for (const cleanup of dirs) await cleanup();
  });

  SCENARIOS.forEach((scenario, index) => {
    it(`${scenario.name}: same exit code, stdout and stderr`, () => {
      const local = results.local[index]!;
      const remote = results.remote[index]!;
      expect(local.code, local.stderr).toBe(scenario.code);
      expect(remote.code, remote.stderr).toBe(scenario.code);
      const stdout = (result: CliResult) => normalise(result.stdout);
      expect(stdout(remote)).toBe(stdout(local));
      expect(normalise(remote.stderr)).toBe(normalise(local.stderr));
      expect(local.stderr).not.toMatch(/\n\s+at /); // never a stack trace
    });
  });

  it('prints the deprecation warning as one stderr line in both modes', () => {
    const index = SCENARIOS.findIndex((scenario) => scenario.name === 'quote with deprecated palletDims');
    for (const mode of ['local', 'remote'] as const) {
      const lines = withoutFreightCheck(results[mode][index]!.stderr).trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^warning: \[DEPRECATED_PALLET_DIMENSIONS\] palletDimensions is deprecated/);
    }
  });

  it('says what integrity refused or warned about, the same in both modes', () => {
    const of = (name: string, mode: 'local' | 'remote') => results[mode][SCENARIOS.findIndex((scenario) => scenario.name === name)]!;
    for (const mode of ['local', 'remote'] as const) {
      expect(of('quote over the freight limits', mode).stderr).toMatch(
        /palletCount must be at most 60 .*poundsWeight must be at most 45,000 lb .*length must be at most 636 in .*height must be at least 1 in/,
      );
      expect(withoutFreightCheck(of('quote beyond standard LTL', mode).stderr)).toMatch(
        /^warning: \[BEYOND_LTL\] beyond standard LTL: 13 pallets .*21,000 lb .*volume LTL or truckload.*\n$/,
      );
      expect(normalise(of('ship with a state against the ZIP', mode).stderr).trim()).toBe(
        'shipper: NJ does not match ZIP 10001, which is in New York, NY; correct the state or the ZIP (deliveryAddress.state)',
      );
      expect(of('quote to the Hopi Reservation in summer', mode).stdout).toMatch(/ETA Wed 2027-07-14 17:00 MST/);
    }
  });

  it('recognises a re-imported file in both modes (remote: the Idempotent-Replayed header)', () => {
    const index = SCENARIOS.findIndex((scenario) => scenario.name === 'import the sample CSV again (nothing new)');
    for (const mode of ['local', 'remote'] as const) {
      expect(results[mode][index]!.stdout).toMatch(/0 shipments booked/);
      expect(results[mode][index]!.stdout).toMatch(/3 shipments already booked/);
    }
  });
});
