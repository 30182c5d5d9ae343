/**
 * The file store's crash campaign (issue 26): real processes killed with SIGKILL, then every
 * shipment read back through the CLI as a user reads it.
 *   1. `shipper import` killed at a random moment of its booking (after a random number of
 *      acknowledged shipments, plus up to 200 ms), then run again to finish the file.
 *   2. `shipper serve` killed under POSTs from 16 clients, each booking with an Idempotency-Key;
 *      the bookings left unanswered are sent again, with their keys, to the restarted server.
 *   3. `shipper import` killed by the store itself at each named point of a commit
 *      (SHIPPER_KILL_AT: inside the journal write, between the journal and the files, while the
 *      files are put in place, during a compaction, during a merge of a pending log), then run again.
 * The journal and pending logs are given small limits, so that compactions and merges happen
 * every few batches and the random kills land in them too.
 * Acknowledged: a shipment an import listed on stdout, a 201 of the server. Every booking of the
 * campaign has a reference of its own, so a shipment booked twice shows as two with one reference.
 *   node bench/run.mjs crash [--imports 10] [--serves 6]
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, figure, row, startUrlChild, stopChild } from './lib.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Math.max(1, Number(args[at + 1]) || fallback) : fallback;
};
const IMPORT_KILLS = option('imports', 10);
const SERVE_KILLS = option('serves', 6);
/** Shipments of each import file: three batches of the importer (500 a batch). */
const FILE_SHIPMENTS = 1200;
const KILL_POINTS = ['journal-write', 'after-journal', 'during-apply', 'during-compaction', 'during-merge'] as const;

const work = mkdtempSync(join(tmpdir(), 'shipper-bench-crash-'));
const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  NO_COLOR: '1',
  CI: '1',
  SHIPPER_CONFIG_DIR: join(work, 'config'),
  // A compaction about every batch of an import, a merge of the idempotency log every few.
  SHIPPER_JOURNAL_LIMIT: String(1024 * 1024),
  SHIPPER_PENDING_LIMIT: String(64 * 1024),
  ...extra,
});
const random = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

interface Acknowledged {
  id: string;
  orderNumber: string;
}

interface Campaign {
  store: string;
  faults: number;
  /** Acknowledged by a process that was then killed: what a kill could have lost. */
  beforeKills: number;
  /** Everything acknowledged, by the killed processes and by the runs after them. */
  acknowledged: Acknowledged[];
  /** References each file (or the server's load) must hold exactly once at the end. */
  expected: string[];
}

interface StoredShipment {
  id: string;
  orderNumber: string;
  bolNumber: string;
  refNumber: string | null;
  ssccs?: string[] | null;
}

function writeImportFile(path: string, prefix: string): string[] {
  const references = Array.from({ length: FILE_SHIPMENTS }, (_, index) => `${prefix}-${String(index).padStart(5, '0')}`);
  const lines = [
    'refNumber,shipperName,shipperStreet1,shipperCity,shipperState,shipperPostalCode,consigneeName,consigneeStreet1,consigneeCity,consigneeState,consigneePostalCode,palletCount,poundsWeight,length,width,height,description',
    ...references.map((reference, index) =>
      [
        reference,
        'Acme DC',
        '2100 S Halsted St',
        'Chicago',
        'IL',
        '60608',
        `Store ${index % 89}`,
        '1 Penn Plaza',
        'New York',
        'NY',
        '10001',
        1 + (index % 3),
        200 + ((index * 13) % 1800),
        48,
        40,
        48,
        'Cartons',
      ].join(','),
    ),
  ];
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
  return references;
}

/** The shipments an import streams with --json, one line each (see `shipper import --json`). */
const streamed = (stdout: string): Acknowledged[] => [...stdout.matchAll(/^ {4}(\{"line".*\}),?$/gm)].map((match) => JSON.parse(match[1]!) as Acknowledged);

/**
 * Runs an import, SIGKILLed `extraMs` after it has acknowledged `killAfter` shipments (or killed by
 * the store itself at the kill point its `env` names). Resolves with what it acknowledged and
 * whether it was killed (an import that finished first was not).
 */
async function runImport(
  store: string,
  file: string,
  options: { killAfter?: number; extraMs?: number; env?: Record<string, string> },
): Promise<{ acknowledged: Acknowledged[]; killed: boolean }> {
  const child = spawn(process.execPath, [BIN, '--store', store, 'import', file, '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: env(options.env) });
  let stdout = '';
  let stderr = '';
  let armed = false;
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (options.killAfter === undefined || armed || streamed(stdout).length < options.killAfter) return;
    armed = true;
    setTimeout(() => child.kill('SIGKILL'), options.extraMs ?? 0);
  });
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  if (signal !== 'SIGKILL' && code !== 0) throw new Error(`shipper import exited ${code}: ${stderr.slice(0, 400)}`);
  return { acknowledged: streamed(stdout), killed: signal === 'SIGKILL' };
}

async function importCampaign(): Promise<Campaign> {
  const campaign: Campaign = { store: join(work, 'imports'), faults: 0, beforeKills: 0, acknowledged: [], expected: [] };
  // An import that finished before its kill is no fault: files are added until enough were killed.
  for (let round = 0; campaign.faults < IMPORT_KILLS && round < IMPORT_KILLS * 3; round++) {
    const file = join(work, `import-${round}.csv`);
    campaign.expected.push(...writeImportFile(file, `I${round}`));
    const killed = await runImport(campaign.store, file, { killAfter: random(0, FILE_SHIPMENTS - 200), extraMs: random(0, 200) });
    campaign.acknowledged.push(...killed.acknowledged);
    if (killed.killed) {
      campaign.faults++;
      campaign.beforeKills += killed.acknowledged.length;
    }
    campaign.acknowledged.push(...(await runImport(campaign.store, file, {})).acknowledged);
  }
  return campaign;
}

async function killPointCampaign(): Promise<Campaign & { reached: string[] }> {
  const campaign = { store: join(work, 'kill-points'), faults: 0, beforeKills: 0, acknowledged: [] as Acknowledged[], expected: [] as string[], reached: [] as string[] };
  for (const [round, point] of KILL_POINTS.entries()) {
    const file = join(work, `point-${round}.csv`);
    campaign.expected.push(...writeImportFile(file, `P${round}`));
    const killed = await runImport(campaign.store, file, { env: { SHIPPER_KILL_AT: `${point}@${random(1, 2)}` } });
    campaign.acknowledged.push(...killed.acknowledged);
    if (killed.killed) {
      campaign.faults++;
      campaign.beforeKills += killed.acknowledged.length;
      campaign.reached.push(point);
    }
    campaign.acknowledged.push(...(await runImport(campaign.store, file, {})).acknowledged);
  }
  return campaign;
}

const startServe = (store: string) =>
  startUrlChild(process.execPath, [BIN, '--store', store, '--json', 'serve', '--port', '0', '--cache-size', '0', '--drain-delay', '0'], { env: env() });

async function serveCampaign(): Promise<Campaign> {
  const campaign: Campaign = { store: join(work, 'serve'), faults: 0, beforeKills: 0, acknowledged: [], expected: [] };
  const body = (reference: string) =>
    JSON.stringify({
      refNumber: reference,
      pickupAddress: {
        name: 'Acme DC',
        address1: '2100 S Halsted St',
        city: 'Chicago',
        state: 'IL',
        zipCode: '60608',
        contactPerson: 'Dock Manager',
        phoneNumber: '(312) 555-0100',
      },
      deliveryAddress: { name: 'Store 1', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001', contactPerson: 'Receiving', phoneNumber: '(212) 555-0100' },
      orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 }, description: 'Cartons' }],
    });
  const book = async (url: string, reference: string): Promise<Acknowledged> => {
    const response = await fetch(`${url}/v1/shipper/shipment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `crash-${reference}` },
      body: body(reference),
    });
    if (response.status !== 201 && response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    return (await response.json()) as Acknowledged;
  };
  let next = 0;
  for (let round = 0; round < SERVE_KILLS; round++) {
    const server = await startServe(campaign.store);
    const killAfter = random(5, 150);
    let answered = 0;
    let stopped = false;
    const unanswered: string[] = [];
    const clients = Array.from({ length: 16 }, async () => {
      while (!stopped) {
        const reference = `S-${String(next++).padStart(6, '0')}`;
        campaign.expected.push(reference);
        try {
          campaign.acknowledged.push(await book(server.url, reference));
          if (++answered >= killAfter && !stopped) {
            stopped = true;
            server.child.kill('SIGKILL');
          }
        } catch {
          // Cut off by the kill: booked or not, never twice once sent again with its key.
          unanswered.push(reference);
          stopped = true;
        }
      }
    });
    await Promise.all(clients);
    await stopChild(server.child, 'SIGKILL');
    campaign.faults++;
    campaign.beforeKills += answered;
    const restarted = await startServe(campaign.store);
    for (const reference of unanswered) campaign.acknowledged.push(await book(restarted.url, reference));
    await stopChild(restarted.child);
  }
  return campaign;
}

/** Every shipment of the store through `shipper shipment list`, page after page; a warning (a damaged record) counts. */
function readBack(store: string): { shipments: StoredShipment[]; warnings: number } {
  const shipments: StoredShipment[] = [];
  let cursor: string | null = null;
  let warnings = 0;
  do {
    const result = spawnSync(process.execPath, [BIN, '--store', store, 'shipment', 'list', '--json', '--limit', '500', ...(cursor ? ['--cursor', cursor] : [])], {
      env: env(),
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (result.status !== 0) throw new Error(`shipment list exited ${result.status}: ${result.stderr.slice(0, 400)}`);
    if (result.stderr.trim() !== '') warnings++;
    const page = JSON.parse(result.stdout) as { items: StoredShipment[]; nextCursor: string | null };
    shipments.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return { shipments, warnings };
}

const reused = (values: string[]) => values.length - new Set(values).size;

function verdict(campaign: Campaign) {
  const { shipments, warnings } = readBack(campaign.store);
  const byId = new Map(shipments.map((shipment) => [shipment.id, shipment.orderNumber]));
  const missing = new Set(campaign.acknowledged.filter((shipment) => byId.get(shipment.id) !== shipment.orderNumber).map((shipment) => shipment.id)).size;
  const references = shipments.map((shipment) => shipment.refNumber ?? '');
  const duplicates = reused(references);
  const numbersReused =
    reused(shipments.map((shipment) => shipment.orderNumber)) +
    reused(shipments.map((shipment) => shipment.bolNumber)) +
    reused(shipments.flatMap((shipment) => shipment.ssccs ?? []));
  const present = new Set(references);
  const notBooked = campaign.expected.filter((reference) => !present.has(reference)).length;
  return { shipments: shipments.length, acknowledged: new Set(campaign.acknowledged.map((shipment) => shipment.id)).size, missing, duplicates, numbersReused, notBooked, warnings };
}

try {
  const started = performance.now();
  console.log(`file store crash campaign, Node ${process.version}: ${IMPORT_KILLS} imports and ${SERVE_KILLS} servers killed at random, ${KILL_POINTS.length} kill points`);
  const imports = await importCampaign();
  const points = await killPointCampaign();
  const serves = await serveCampaign();
  const results = [
    ['imports killed at random', imports],
    ['imports killed at a point of a commit', points],
    ['servers killed under POSTs', serves],
  ] as const;
  const total = { faults: 0, beforeKills: 0, acknowledged: 0, missing: 0, duplicates: 0, numbersReused: 0, notBooked: 0, warnings: 0 };
  for (const [label, campaign] of results) {
    const found = verdict(campaign);
    row(label, `${campaign.faults} kills; ${campaign.beforeKills} acknowledged before them, ${found.acknowledged} in all; ${found.shipments} stored`);
    row('  acknowledged missing, duplicates, numbers reused', `${found.missing}, ${found.duplicates}, ${found.numbersReused}`);
    // Every file is run again to its end; the server's unanswered bookings are sent again.
    row('  bookings never completed, reads that warned', `${found.notBooked}, ${found.warnings}`);
    total.faults += campaign.faults;
    total.beforeKills += campaign.beforeKills;
    for (const key of ['acknowledged', 'missing', 'duplicates', 'numbersReused', 'notBooked', 'warnings'] as const) total[key] += found[key];
  }
  row('kill points reached', points.reached.join(', ') || 'none');
  row('campaign', `${((performance.now() - started) / 1000).toFixed(0)} s`);
  figure({ bench: 'crash', name: 'faults injected (SIGKILLs)', value: total.faults, unit: '' });
  figure({ bench: 'crash', name: 'bookings acknowledged by a process then killed', value: total.beforeKills, unit: '' });
  figure({ bench: 'crash', name: 'bookings acknowledged in all', value: total.acknowledged, unit: '' });
  figure({ bench: 'crash', name: 'acknowledged bookings missing after restart', value: total.missing, unit: '', target: { op: '=', value: 0 } });
  figure({ bench: 'crash', name: 'shipments booked twice', value: total.duplicates, unit: '', target: { op: '=', value: 0 } });
  figure({ bench: 'crash', name: 'numbers issued twice (order, BOL, SSCC)', value: total.numbersReused, unit: '', target: { op: '=', value: 0 } });
  figure({ bench: 'crash', name: 'bookings a re-run did not complete', value: total.notBooked, unit: '', target: { op: '=', value: 0 } });
  figure({ bench: 'crash', name: 'reads that found a damaged record', value: total.warnings, unit: '', target: { op: '=', value: 0 } });
  figure({ bench: 'crash', name: 'kill points reached', value: points.reached.length, unit: '', target: { op: '=', value: KILL_POINTS.length } });
} finally {
  rmSync(work, { recursive: true, force: true });
}
