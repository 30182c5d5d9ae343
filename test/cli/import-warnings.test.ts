/** Which warnings `shipper import` prints, and that what it remembers to print each once does not grow with the file. */
import { describe, expect, it } from 'vitest';
import { PrintedWarnings } from '../../src/cli/commands/importRun.js';

describe('the warnings an import prints', () => {
  it('prints a batch warning once however many chunks give it, and a line warning once for its shipment', () => {
    const printed = new PrintedWarnings();
    expect(printed.admit('DOCUMENTATION_PREFIX', 'BOL numbers ...', false)).toBe(true);
    printed.shipmentReported();
    expect(printed.admit('DOCUMENTATION_PREFIX', 'BOL numbers ...', false)).toBe(false);
    expect(printed.admit('ZIP_PADDED', 'line 2, column shipperPostalCode: ZIP 2134 read as 02134', true)).toBe(true);
    expect(printed.admit('ZIP_PADDED', 'line 2, column shipperPostalCode: ZIP 2134 read as 02134', true)).toBe(false);
    expect(printed.admit('ZIP_PADDED', 'line 3, column shipperPostalCode: ZIP 2134 read as 02134', true)).toBe(true);
  });

  it("lists the freight check's first 20, and remembers no more than a shipment's warnings and the batches' however many lines warn", () => {
    const printed = new PrintedWarnings();
    let listed = 0;
    for (let line = 2; line < 20_002; line++) {
      if (printed.admit('LINEAR_FEET', `line ${line}: the shipment takes 20 ft of trailer`, true)) listed++;
      if (printed.admit('REFERENCE_TAKEN', `line ${line}: refNumber PO-${line} is already booked`, true)) listed++;
      printed.admit('DOCUMENTATION_PREFIX', 'BOL numbers ...', false);
      printed.shipmentReported();
      expect(printed.remembered).toBeLessThanOrEqual(1);
    }
    expect(listed).toBe(20 + 20_000);
  });
});
