/** The small wire conventions shared by server and client. */
import { describe, expect, it } from 'vitest';
import { decodeHeaderText, encodeHeaderText, isLoopbackHost } from '../../src/api/wire.js';

describe('warning header text', () => {
  it('round-trips any text through a one-line ASCII header value', () => {
    for (const text of ['plain: text, with (punctuation)', '100% sure', 'Ünïcödé — 日本 🚚', 'two\nlines']) {
      const encoded = encodeHeaderText(text);
      expect(encoded).toMatch(/^[\x20-\x7E]*$/);
      expect(decodeHeaderText(encoded)).toBe(text);
    }
    expect(encodeHeaderText('orderComponents[0].palletDimensions: use dimensions {length, width, height}')).toBe(
      'orderComponents[0].palletDimensions: use dimensions {length, width, height}',
    );
  });

  it('shows a foreign header that is not %-encoded as it came', () => {
    expect(decodeHeaderText('50% off')).toBe('50% off');
  });
});

describe('isLoopbackHost', () => {
  it('knows the loopback names and addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });
});
