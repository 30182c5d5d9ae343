/**
 * Tracking through the CLI (in process, the same program as bin/shipper.js): carriers' 214 files
 * imported onto booked shipments (matched by PRO and SCAC, by BOL number, by reference and ZIP),
 * resent messages dropped, unmatched and future messages listed with exit 1, the timeline in local
 * times, the tracking status on the shipment, the list filters and the carrier scorecard.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackedShipmentArgs, withContact } from '../helpers/fixtures.js';
import { shipmentTrackingSchema } from '../../src/domain/tracking.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const FIXTURES = fileURLToPath(new URL('fixtures/', import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);

let dir: { dir: string; cleanup: () => Promise<void> };
const BOOKED_AT = '2026-11-23T15:00:00Z';
const IMPORTED_AT = '2026-11-30T18:00:00Z';

function cli(args: string[], now = IMPORTED_AT) {
  return runInProcess(['--store', join(dir.dir, 'store'), ...args], { env: { SHIPPER_NOW: now, SHIPPER_CONFIG_DIR: join(dir.dir, 'config') } });
}

async function json<T = Record<string, unknown>>(args: string[], now?: string): Promise<T> {
  const result = await cli(['--json', ...args], now);
  expect(result.stderr).not.toMatch(/at .*\.ts:\d/);
  return JSON.parse(result.stdout) as T;
}

beforeAll(async () => {
  dir = await tempDir('shipper-track-');
  const book = async (args: string[]) => {
    const result = await cli(['-q', 'ship', ...args], BOOKED_AT);
    expect(result.code, result.stderr).toBe(0);
  };
  // No PRO on the second: SAIA's messages find it by BOL number, or by reference and destination ZIP.
  for (const args of trackedShipmentArgs()) await book(args);
});
afterAll(() => dir.cleanup());

describe('shipper track import', () => {
  it('records the events of three files, drops the resent status, lists the unknown PRO and exits 1', async () => {
    const result = await cli(['track', 'import', fixture('odfl-214-a.edi'), fixture('odfl-214-b.edi'), fixture('saia-two-interchanges.edi')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('13 status messages in 3 files: 11 events recorded on 2 shipments, 1 duplicate dropped, 1 unmatched, 0 refused, 0 unreadable messages');
    expect(result.stderr).toContain('Unmatched messages (no shipment found):');
    expect(result.stderr).toContain('odfl-214-b.edi line 1 (ISA 000000102, ST 0002): PRO 9999999999 (ODFL), reference SOMETHING-ELSE: no shipment has PRO 9999999999 of ODFL');
    expect(result.stderr).toContain('shipper: 1 unmatched: not recorded (the others were)');
    // The AG has no place: its zone is the consignee's, said in a warning.
    expect(result.stderr).toMatch(/odfl-214-a\.edi line 30 .*read in America\/New_York/);
  });

  it('importing again records nothing: every message is a duplicate', async () => {
    const report = await json<{ added: number; duplicates: number; unmatched: unknown[] }>(['track', 'import', fixture('odfl-214-a.edi'), fixture('saia-two-interchanges.edi')]);
    expect(report).toMatchObject({ added: 0, duplicates: 9, unmatched: [] });
    const again = await cli(['track', 'import', fixture('odfl-214-a.edi')]);
    expect(again.code).toBe(0);
  });

  it('the timeline: UTC instants from local times at each place, the local times back, delivered from D1', async () => {
    const tracking = shipmentTrackingSchema.parse(await json(['track', 'SO-000001']));
    expect(tracking).toMatchObject({
      orderNumber: 'SO-000001',
      trackingStatus: 'DELIVERED',
      deliveredAt: '2026-11-30T15:45:00.000Z',
      carrierEstimatedDeliveryDate: '2026-11-30T17:00:00.000Z',
    });
    expect(tracking.punctuality).toEqual({ status: 'ON_TIME', basis: 'DELIVERED', promisedDate: '2026-11-30', daysLate: 0 });
    expect(tracking.events.map((event) => [event.statusCode, event.occurredAt, event.timeZone])).toEqual([
      ['X3', '2026-11-24T15:30:00.000Z', 'America/Chicago'],
      ['AF', '2026-11-24T20:10:00.000Z', 'America/Chicago'],
      ['X4', '2026-11-25T07:05:00.000Z', 'America/New_York'],
      ['P1', '2026-11-25T10:40:00.000Z', 'America/New_York'],
      ['AG', '2026-11-25T11:00:00.000Z', 'America/New_York'],
      ['X6', '2026-11-30T12:15:00.000Z', 'America/New_York'],
      ['X1', '2026-11-30T15:02:00.000Z', 'America/New_York'],
      ['D1', '2026-11-30T15:45:00.000Z', 'America/New_York'],
    ]);
    expect(tracking.events[0]).toMatchObject({
      source: 'x12-214',
      scac: 'ODFL',
      milestone: 'AT_PICKUP',
      messageReference: expect.stringMatching(/odfl-214-a\.edi line 11 \(ISA 000000101, ST 0001\)$/),
    });

    const text = await cli(['track', '--pro', '1234567897'], IMPORTED_AT);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Tracking:     DELIVERED  D1 Delivered (unloading completed), NEW YORK, NY, Mon 2026-11-30 10:45 EST');
    expect(text.stdout).toContain('Picked up:    Tue 2026-11-24 14:10 CST (booked for Tue 2026-11-24)');
    expect(text.stdout).toContain('Promised:     Mon 2026-11-30 17:00 EST');
    expect(text.stdout).toContain('Punctuality:  delivered on time');
    expect(text.stdout).toMatch(/Tue 2026-11-24 09:30 CST\s+│ CHICAGO, IL\s+│ X3 Arrived at pick-up location/);
    expect(text.stdout).toMatch(/Wed 2026-11-25 02:05 EST\s+│ COLUMBUS, OH\s+│ X4 Arrived at terminal/);
  });

  it('matched by BOL and by reference with destination ZIP; MT and local time in Arizona (no DST) and New Mexico', async () => {
    const tracking = shipmentTrackingSchema.parse(await json(['track', 'SO-000002']));
    expect(tracking.events.map((event) => [event.statusCode, event.occurredAt, event.timeZone])).toEqual([
      ['X3', '2026-11-25T22:00:00.000Z', 'America/Phoenix'],
      ['AF', '2026-11-25T23:30:00.000Z', 'America/Phoenix'],
      ['SD', '2026-11-26T15:00:00.000Z', 'America/Denver'],
    ]);
    // SD (delayed) is the latest: an exception, and the scorecard counts it by reason.
    expect(tracking.trackingStatus).toBe('EXCEPTION');
  });

  it('trackingStatus on the shipment, in --json and the list filters', async () => {
    const list = await json<{ items: Array<{ orderNumber: string; trackingStatus: string; orderStatus: string }> }>(['shipment', 'list']);
    // Booked in the same millisecond of the test clock: their order in the list is not the point.
    expect(list.items.map((shipment) => [shipment.orderNumber, shipment.orderStatus, shipment.trackingStatus]).sort()).toEqual([
      ['SO-000001', 'DELIVERED', 'DELIVERED'],
      ['SO-000002', 'PICKED_UP', 'EXCEPTION'],
    ]);
    const orders = async (filter: string, now?: string) =>
      (await json<{ items: Array<{ orderNumber: string }> }>(['shipment', 'list', '--tracking', filter], now)).items.map((item) => item.orderNumber);
    expect(await orders('delivered')).toEqual(['SO-000001']);
    expect(await orders('exception')).toEqual(['SO-000002']);
    expect(await orders('in-transit')).toEqual([]);
    expect(await orders('late')).toEqual([]);
    // The next day SO-000002 (promised Monday in Denver) is overdue.
    expect(await orders('late', '2026-12-01T18:00:00Z')).toEqual(['SO-000002']);
    const bad = await cli(['shipment', 'list', '--tracking', 'lost']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Allowed choices are delivered, in-transit, exception, late/);
  });

  it('refuses events more than 2 hours in the future, and lists them', async () => {
    const file = join(dir.dir, 'future.json');
    await writeFile(file, JSON.stringify([{ proNumber: '1234567897', carrierSCAC: 'ODFL', shipmentMilestoneStatus: 'Delivered', eventDateTime: '2026-11-30T16:01:00-05:00' }]));
    const result = await cli(['--json', 'track', 'import', file], '2026-11-30T19:00:00Z');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { added: number; refused: Array<{ reason: string }> };
    expect(report.added).toBe(0);
    expect(report.refused[0]!.reason).toBe("2026-11-30T21:01:00.000Z is more than 2 hours in the future: the carrier's clock or time zone is wrong");
    // Two hours ahead exactly is taken.
    await writeFile(
      file,
      JSON.stringify([{ proNumber: '1234567897', carrierSCAC: 'ODFL', shipmentMilestoneStatus: 'Out for Delivery', eventDateTime: '2026-11-30T16:00:00-05:00' }]),
    );
    expect((await cli(['track', 'import', file], '2026-11-30T19:00:00Z')).code).toBe(0);
  });

  it('usage and not found: no shipment named, both named, an unknown order or PRO, a missing file', async () => {
    expect((await cli(['track'])).code).toBe(2);
    expect((await cli(['track', 'SO-1', '--pro', '1'])).code).toBe(2);
    expect((await cli(['track', 'SO-000099'])).code).toBe(4);
    const pro = await cli(['track', '--pro', '5555']);
    expect(pro.code).toBe(4);
    expect(pro.stderr).toMatch(/shipment with PRO 5555 not found/);
    const missing = await cli(['track', 'import', join(dir.dir, 'nope.edi')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.edi: no such file/);
  });

  it('the carrier scorecard: table, --csv, --json', async () => {
    const scorecard = await json<{ rows: Array<Record<string, unknown>>; total: Record<string, unknown> }>(['report', 'carriers', '--since', '2026-11-01']);
    expect(scorecard.rows).toEqual([
      expect.objectContaining({
        carrier: 'Old Dominion (ODFL)',
        shipments: 1,
        delivered: 1,
        onTime: 1,
        onTimePercent: 100,
        quotedTransitDays: 3,
        actualTransitDays: 3,
        exceptions: {},
      }),
      expect.objectContaining({ carrier: 'Saia (SAIA)', shipments: 1, delivered: 0, onTimePercent: null, exceptions: { 'SD AO': 1 } }),
    ]);
    expect(scorecard.total).toMatchObject({ shipments: 2, delivered: 1 });
    const csv = await cli(['report', 'carriers', '--csv']);
    expect(csv.stdout.split(/\r?\n/)[0]).toBe(
      'carrier,scac,shipments,delivered,onTime,late,onTimePercent,averageDaysLate,worstDaysLate,quotedTransitDays,actualTransitDays,exceptions,billsDisputed,disputed',
    );
    expect(csv.stdout).toContain('Saia (SAIA),SAIA,1,0,0,0,,,,,,SD AO:1,0,0');
    const table = await cli(['report', 'carriers']);
    expect(table.stdout).toMatch(/Old Dominion \(ODFL\)\s+│ 1\s+│ 1\s+│ 100 %/);
    expect(table.stdout).toContain('2 shipments booked; 1 delivery');
  });
});

describe('ITV notifications (the example of docs/tracking.md)', () => {
  it('delivers SO-000002 two business days late: the timeline, the late filter, the scorecard', async () => {
    const when = '2026-12-02T20:00:00Z';
    const report = await json<{ added: number; unmatched: unknown[] }>(['track', 'import', fixture('saia-itv.json')], when);
    expect(report).toMatchObject({ added: 2, unmatched: [] });
    const tracking = shipmentTrackingSchema.parse(await json(['track', 'SO-000002'], when));
    expect(tracking).toMatchObject({ trackingStatus: 'DELIVERED', deliveredAt: '2026-12-02T18:20:00.000Z', carrierEstimatedDeliveryDate: '2026-12-02T19:00:00.000Z' });
    expect(tracking.punctuality).toEqual({ status: 'LATE', basis: 'DELIVERED', promisedDate: '2026-11-30', daysLate: 2 });
    expect(tracking.events.slice(-2).map((event) => [event.source, event.statusCode, event.milestone, event.timeZone])).toEqual([
      ['itv-json', 'Out for Delivery', 'OUT_FOR_DELIVERY', 'America/Denver'],
      ['itv-json', 'Delivered', 'DELIVERED', 'America/Denver'],
    ]);
    const text = await cli(['track', 'SO-000002'], when);
    expect(text.stdout).toContain('Punctuality:  delivered LATE by 2 business days');
    const late = await json<{ items: Array<{ orderNumber: string }> }>(['shipment', 'list', '--tracking', 'late'], when);
    expect(late.items.map((item) => item.orderNumber)).toEqual(['SO-000002']);
    const card = await json<{ rows: Array<Record<string, unknown>> }>(['report', 'carriers'], when);
    expect(card.rows[1]).toMatchObject({
      carrier: 'Saia (SAIA)',
      delivered: 1,
      onTimePercent: 0,
      averageDaysLate: 2,
      worstDaysLate: 2,
      quotedTransitDays: 3,
      actualTransitDays: 4,
    });
  });
});

describe('a 214 across the spring DST change', () => {
  it('01:30 CST in Chicago and 03:30 EDT in Indianapolis on 2027-03-14, as clocks sprang forward, are the same instant', async () => {
    const text = readFileSync(fixture('odfl-214-a.edi'), 'utf8')
      .replace('AT7*X3*NS***20261124*0930*LT', 'AT7*X3*NS***20270314*0130*LT')
      .replace('AT7*AF*NS***20261124*1410', 'AT7*AF*NS***20270314*0330')
      .replace('MS1*CHICAGO*IL*US~\nLX*3', 'MS1*INDIANAPOLIS*IN*US~\nLX*3');
    const file = join(dir.dir, 'dst.edi');
    await writeFile(file, text.replace(/ST\*214\*0002[\s\S]*?SE\*11\*0002~\n/, '').replace('GE*2*101', 'GE*1*101'));
    // After the booking (2026-11-23): an event from before it would be another shipment's.
    const report = await json<{ added: number }>(['track', 'import', file], '2027-03-15T00:00:00Z');
    expect(report.added).toBe(2);
    const tracking = shipmentTrackingSchema.parse(await json(['track', 'SO-000001'], '2027-03-15T00:00:00Z'));
    expect(tracking.events.filter((event) => event.occurredAt === '2027-03-14T07:30:00.000Z').map((event) => event.timeZone)).toEqual([
      'America/Chicago',
      'America/Indiana/Indianapolis',
    ]);
    // Later messages of earlier steps do not demote a delivered shipment.
    expect(tracking.trackingStatus).toBe('DELIVERED');
  });
});

describe('the built binary (bin/shipper.js)', () => {
  it('imports a 214 in its own process: the bundle loads the tracking code it needs', async () => {
    const store = join(dir.dir, 'spawned');
    const env = { SHIPPER_NOW: IMPORTED_AT, SHIPPER_CONFIG_DIR: join(dir.dir, 'config') };
    const result = await runCli(['--store', store, '--json', 'track', 'import', fixture('odfl-214-b.edi')], { env });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { messages: number; unmatched: Array<{ reference: string }> };
    expect(report.messages).toBe(4);
    expect(report.unmatched.map((item) => item.reference)).toEqual([
      expect.stringMatching(/odfl-214-b\.edi line 1 \(ISA 000000102, ST 0001\)$/),
      expect.stringMatching(/odfl-214-b\.edi line 1 \(ISA 000000102, ST 0001\)$/),
      expect.stringMatching(/odfl-214-b\.edi line 1 \(ISA 000000102, ST 0001\)$/),
      expect.stringMatching(/odfl-214-b\.edi line 1 \(ISA 000000102, ST 0002\)$/),
    ]);
    const help = await runCli(['track', '--help'], { env });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('shipper track import');
  });
});

describe('an event from before the booking (issue 39: the README tour on the real clock)', () => {
  const SAMPLE = join(fileURLToPath(new URL('../../templates/tracking/', import.meta.url)), 'sample-214.edi');
  const SHIPPER = withContact('name="Acme DC",address1="2100 S Halsted St",city=Chicago,state=IL,zip=60608');
  const CONSIGNEE = withContact('name="Store 12",address1="1 Penn Plaza",city="New York",state=NY,zip=10001');

  /** A store of its own, its shipments booked with ODFL's PRO 1234567897 (and PO-4471 to 10001, the sample's keys) at each instant. */
  async function storeWith(bookedAt: readonly string[]) {
    const store = join(dir.dir, `before-${bookedAt.join('-').replace(/[:.]/g, '')}`);
    const run = (args: string[], now: string) => runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: now, SHIPPER_CONFIG_DIR: join(dir.dir, 'config') } });
    for (const now of bookedAt) {
      const booked = await run(
        [
          '-q',
          'ship',
          '--shipper',
          SHIPPER,
          '--consignee',
          CONSIGNEE,
          '-c',
          'pallets=2,weight=1200,dims=48x40x48,desc=Parts',
          '--ref',
          'PO-4471',
          '--carrier',
          'Old Dominion',
          '--scac',
          'ODFL',
          '--pro',
          '1234567897',
        ],
        now,
      );
      expect(booked.code, booked.stderr).toBe(0);
    }
    return run;
  }

  it('is not applied to a shipment booked more than 24 hours after it: unmatched with the reason, exit 1, no pickup, no delivery, not in the scorecard', async () => {
    // Booked on Monday 2026-12-07 (pickup the 8th); the sample's events are of 2026-11-24 to 11-30.
    const run = await storeWith(['2026-12-07T15:00:00Z']);
    const imported = await run(['track', 'import', SAMPLE], '2026-12-07T16:00:00Z');
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('0 events recorded on 0 shipments');
    expect(imported.stderr).toContain(
      'the event of 2026-11-24 15:30 UTC is more than 24 hours before PRO 1234567897 was booked on SO-000001 (booked 2026-12-07 15:00 UTC): an event matches only a shipment booked before it (a reused PRO or reference)',
    );
    const report = JSON.parse((await run(['--json', 'track', 'import', SAMPLE], '2026-12-07T16:00:00Z')).stdout) as { added: number; unmatched: Array<{ reason: string }> };
    expect(report.added).toBe(0);
    expect(report.unmatched).toHaveLength(6);
    expect(report.unmatched.every(({ reason }) => reason.includes('more than 24 hours before PRO 1234567897 was booked'))).toBe(true);
    const shown = await run(['track', 'SO-000001'], '2026-12-07T16:00:00Z');
    expect(shown.stdout).toContain('Picked up:    not yet said by the carrier (booked for Tue 2026-12-08)');
    expect(shown.stdout).not.toMatch(/2026-11-2\d|Delivered:|delivered on time/);
    const scorecard = JSON.parse((await run(['--json', 'report', 'carriers', '--since', '2026-11-01'], '2026-12-07T16:00:00Z')).stdout) as { total: { delivered: number } };
    expect(scorecard.total.delivered).toBe(0);
  });

  it('on the boundary: an event just under 24 hours before the booking is applied, one just over is not', async () => {
    // The sample's first event: 2026-11-24 09:30 in Chicago, 15:30 UTC.
    const under = await storeWith(['2026-11-25T15:29:00Z']);
    const applied = JSON.parse((await under(['--json', 'track', 'import', SAMPLE], '2026-12-01T15:00:00Z')).stdout) as { added: number; unmatched: unknown[] };
    expect(applied).toMatchObject({ added: 6, unmatched: [] });
    const over = await storeWith(['2026-11-25T15:31:00Z']);
    const refused = JSON.parse((await over(['--json', 'track', 'import', SAMPLE], '2026-12-01T15:00:00Z')).stdout) as { added: number; unmatched: Array<{ reason: string }> };
    expect(refused.added).toBe(5);
    expect(refused.unmatched.map(({ reason }) => reason)).toEqual([
      expect.stringMatching(/^the event of 2026-11-24 15:30 UTC is more than 24 hours before PRO 1234567897 was booked/),
    ]);
  });

  it('a PRO found on a shipment booked after the event does not take it: the older shipment its BOL number names does', async () => {
    // SO-000001 booked 2026-11-23 without a PRO (its BOL number is the sample's); SO-000002 booked 2026-12-07 with the sample's PRO.
    const store = join(dir.dir, 'before-reused');
    const run = (args: string[], now: string) => runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: now, SHIPPER_CONFIG_DIR: join(dir.dir, 'config') } });
    const freight = ['--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts'];
    expect((await run(['-q', 'ship', ...freight, '--ref', 'PO-1'], '2026-11-23T15:00:00Z')).code).toBe(0);
    const later = await run(['-q', 'ship', ...freight, '--ref', 'PO-2', '--carrier', 'Old Dominion', '--scac', 'ODFL', '--pro', '1234567897'], '2026-12-07T15:00:00Z');
    expect(later.code, later.stderr).toBe(0);
    const report = JSON.parse((await run(['--json', 'track', 'import', SAMPLE], '2026-12-07T16:00:00Z')).stdout) as { added: number; unmatched: unknown[] };
    expect(report).toMatchObject({ added: 6, unmatched: [] });
    const first = shipmentTrackingSchema.parse(JSON.parse((await run(['--json', 'track', 'SO-000001'], '2026-12-07T16:00:00Z')).stdout));
    expect(first).toMatchObject({ trackingStatus: 'DELIVERED', deliveredAt: '2026-11-30T16:02:00.000Z' });
    const second = shipmentTrackingSchema.parse(JSON.parse((await run(['--json', 'track', 'SO-000002'], '2026-12-07T16:00:00Z')).stdout));
    expect(second.events).toEqual([]);
  });
});
