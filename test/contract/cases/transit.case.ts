/** Contract: transit tables (POST /v1/shipper/transit) in both modes. */
import { describe, expect, it } from 'vitest';
import { expectProblem, fields, messagesOf } from '../expect.js';
import type { ContractCase } from '../suite.js';

const contract: ContractCase = (target) => {
  describe('transit tables', () => {
    it('answers one lane per destination with a row per pickup day, ETAs as UTC instants', async () => {
      const { data, warnings } = await target().api.transitTimes({
        origin: { zipCode: '60601' },
        destinations: [{ zipCode: '10001' }, { zipCode: '90012' }, { zipCode: '99501' }],
        pickupDays: 3,
      });
      expect(messagesOf(warnings)).toEqual([]);
      expect(data.lanes.map((lane) => lane.destination.zipCode)).toEqual(['10001', '90012', '99501']);
      const [newYork, losAngeles, anchorage] = data.lanes;
      expect(newYork!.destination.timeZone).toBe('America/New_York');
      expect(losAngeles!.destination.timeZone).toBe('America/Los_Angeles');
      for (const lane of [newYork!, losAngeles!]) {
        expect(lane.covered).toBe(true);
        // Three pickup days from Tue 2026-11-24; Thanksgiving (Thu) is shown as a closed row.
        expect(lane.rows.filter((row) => row.pickupAvailable)).toHaveLength(3);
        expect(lane.rows.filter((row) => !row.pickupAvailable).map((row) => row.pickupDate)).toEqual(['2026-11-26']);
        expect(lane.rows.find((row) => !row.pickupAvailable)!.closedReason).toMatch(/Thanksgiving/);
        for (const row of lane.rows.filter((candidate) => candidate.pickupAvailable)) {
          expect(row.transitDays).toBeGreaterThan(0);
          expect(row.estimatedDeliveryDate).toMatch(/Z$/);
        }
      }
      // Farther takes at least as long.
      expect(losAngeles!.rows[0]!.transitDays!).toBeGreaterThanOrEqual(newYork!.rows[0]!.transitDays!);
      // Alaska is outside the default coverage: no transit days, no ETA.
      expect(anchorage!.covered).toBe(false);
      expect(anchorage!.rows.every((row) => row.transitDays === null && row.estimatedDeliveryDate === null)).toBe(true);
    });

    it('reports every bad field at once: unknown ZIPs by position, pickupDays out of range', async () => {
      const problem = await expectProblem(
        target().api.transitTimes({ origin: { zipCode: '00000' }, destinations: [{ zipCode: '10001' }, { zipCode: '00001' }], pickupDays: 0 }),
        400,
      );
      expect(fields(problem).sort()).toEqual(['destinations[1].zipCode', 'origin.zipCode', 'pickupDays']);
    });

    it('refuses a request without destinations', async () => {
      const problem = await expectProblem(target().api.transitTimes({ origin: { zipCode: '60601' }, destinations: [] }), 400);
      expect(fields(problem)).toEqual(['destinations']);
    });
  });
};

export default contract;
