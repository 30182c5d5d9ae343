import { describe, expect, it } from 'vitest';
import { bolBarcodeData, renderBolBarcodePng } from '../../src/bol/barcode.js';

describe('barcode', () => {
  it('encodes AI 402 followed by the 17-digit BOL number', () => {
    expect(bolBarcodeData('06141410000001231')).toBe('(402)06141410000001231');
    expect(() => bolBarcodeData('123')).toThrow(/17 digits/);
  });

  it('renders a PNG two pixels per module wide (156 modules for AI 402 + 17 digits)', async () => {
    const png = await renderBolBarcodePng('06141410000001231');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const width = new DataView(png.buffer, png.byteOffset).getUint32(16);
    // Start C + FNC1 + 10 code-C pairs + check + stop: 11 * 13 + 13 = 156 modules.
    expect(width).toBe(312);
  });
});
