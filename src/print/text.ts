/**
 * Fitting text into boxes, PURE: wrapping, cutting with an ellipsis and shrinking, measured with
 * the document font's metrics so that nothing printed overflows its box.
 */
import type { TextMetrics } from './drawOps.js';

/** Collapses all whitespace (line breaks, tabs) to single spaces: for one-line fields. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Paragraphs of a multi-line field, whitespace inside a paragraph collapsed. */
export function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim());
}

const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Texts this long are wrapped once per metrics, box and size: a template's legal texts, the same on every BOL. */
const REMEMBERED_LENGTH = 80;
const REMEMBERED_TEXTS = 256;
const wrapped = new WeakMap<object, Map<string, Map<string, string[]>>>();

/**
 * Greedy word wrap of printable text into lines no wider than `maxWidth`; a word longer than a
 * line is broken between graphemes. Empty text gives no lines. Long texts are wrapped once for
 * the same metrics (which measure the same text the same way every time), width, size and face.
 */
export function wrapText(text: string, maxWidth: number, size: number, bold: boolean, metrics: Pick<TextMetrics, 'widthOf'>): string[] {
  if (text.length < REMEMBERED_LENGTH) return wrapNow(text, maxWidth, size, bold, metrics);
  let texts = wrapped.get(metrics);
  if (!texts) wrapped.set(metrics, (texts = new Map()));
  let boxes = texts.get(text);
  if (!boxes) {
    if (texts.size >= REMEMBERED_TEXTS) texts.clear();
    texts.set(text, (boxes = new Map()));
  }
  const box = `${maxWidth} ${size} ${bold}`;
  let lines = boxes.get(box);
  if (!lines) boxes.set(box, (lines = wrapNow(text, maxWidth, size, bold, metrics)));
  // A copy: callers may change what they get.
  return lines.slice();
}

function wrapNow(text: string, maxWidth: number, size: number, bold: boolean, metrics: Pick<TextMetrics, 'widthOf'>): string[] {
  const lines: string[] = [];
  const spaceWidth = metrics.widthOf(' ', size, bold);
  let line = '';
  let lineWidth = 0;
  for (const word of text.split(' ')) {
    if (word === '') continue;
    const wordWidth = metrics.widthOf(word, size, bold);
    if (line && lineWidth + spaceWidth + wordWidth <= maxWidth) {
      line += ` ${word}`;
      lineWidth += spaceWidth + wordWidth;
      continue;
    }
    if (line) lines.push(line);
    if (wordWidth <= maxWidth) {
      line = word;
      lineWidth = wordWidth;
      continue;
    }
    line = '';
    lineWidth = 0;
    for (const { segment } of graphemeSegmenter.segment(word)) {
      const segmentWidth = metrics.widthOf(segment, size, bold);
      if (line && lineWidth + segmentWidth > maxWidth) {
        lines.push(line);
        line = '';
        lineWidth = 0;
      }
      line += segment;
      lineWidth += segmentWidth;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Cuts `lines` to `max`, ending the last kept line with an ellipsis that still fits. */
export function clampLines(lines: string[], max: number, maxWidth: number, size: number, metrics: TextMetrics, bold = false): string[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  let last = kept[max - 1] ?? '';
  while (last && metrics.widthOf(`${last}…`, size, bold) > maxWidth) last = last.slice(0, -1);
  kept[max - 1] = `${last}…`;
  return kept;
}

/** The text cut to one line of `maxWidth`, ending with an ellipsis when it had to be cut. */
export function truncateToWidth(text: string, maxWidth: number, size: number, bold: boolean, metrics: TextMetrics): string {
  if (metrics.widthOf(text, size, bold) <= maxWidth) return text;
  const ellipsisWidth = metrics.widthOf('…', size, bold);
  let kept = '';
  let width = 0;
  for (const { segment } of graphemeSegmenter.segment(text)) {
    const segmentWidth = metrics.widthOf(segment, size, bold);
    if (width + segmentWidth + ellipsisWidth > maxWidth) break;
    kept += segment;
    width += segmentWidth;
  }
  return `${kept.trimEnd()}…`;
}

/**
 * Printable text fitted into `maxWidth` and, where possible, `maxLines`: at `size` when it fits,
 * else at the largest size down to `minSize` (in steps of half a point) where it does, else wrapped
 * at `minSize` on as many lines as it needs. Long values shrink, then wrap; they never lose
 * characters (cut with `clampLines` where a box cannot grow).
 */
export function fitText(
  text: string,
  maxWidth: number,
  maxLines: number,
  size: number,
  minSize: number,
  bold: boolean,
  metrics: Pick<TextMetrics, 'widthOf'>,
): { lines: string[]; size: number } {
  for (let candidate = size; candidate > minSize; candidate -= 0.5) {
    const lines = wrapText(text, maxWidth, candidate, bold, metrics);
    if (lines.length <= maxLines) return { lines, size: candidate };
  }
  return { lines: wrapText(text, maxWidth, minSize, bold, metrics), size: minSize };
}
