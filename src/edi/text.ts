/**
 * Text for X12 elements. X12 004010 data is printable ASCII (the basic and extended character
 * sets); carriers print it on bills and feed it to systems that predate Unicode. So text is
 * transliterated where a Latin reading exists and refused where it does not, never mangled:
 *
 * - whitespace runs (line breaks and tabs included) become one space, ends are trimmed;
 * - Latin, Greek and Cyrillic letters and typographic punctuation are transliterated by the
 *   `any-ascii` tables: é -> e, ü -> u, ß -> ss, Œ -> OE, “ ” -> ", … -> ..., Жёлтый -> Zhyoltyy;
 * - anything else (emoji and pictographs, Han, Kana, Hangul, Arabic, Hebrew...) is refused: a
 *   romanisation of 日本製 or ":truck:" for 🚚 would put words on the bill that nobody wrote.
 *   Symbols with a plain reading stay: ™ -> TM, ½ -> 1/2, € -> EUR.
 *
 * Pure.
 */
import anyAscii from 'any-ascii';

const TRANSLITERABLE = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]$/u;
const EMOJI = /^[\p{Emoji_Presentation}\p{Emoji_Modifier}\p{Regional_Indicator}]$/u;
/** Zero-width joiners and variation selectors travel with emoji: refused with them, not reported apart. */
// eslint-disable-next-line no-misleading-character-class -- each joiner or selector is matched alone, as a character on its own
const EMOJI_GLUE = /^[\u200d\ufe0e\ufe0f\u20e3]$/u;
const COMBINING_MARK = /^\p{M}$/u;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export type X12TextResult = { ok: true; text: string } | { ok: false; unwritable: string[] };

/** `value` in the X12 character set, or the characters that have no faithful ASCII form. */
export function toX12Text(value: string): X12TextResult {
  const collapsed = value.normalize('NFC').replace(/\s+/gu, ' ').trim();
  if (PRINTABLE_ASCII.test(collapsed)) return { ok: true, text: collapsed };
  const unwritable = new Set<string>();
  let text = '';
  for (const character of collapsed) {
    if (PRINTABLE_ASCII.test(character)) {
      text += character;
      continue;
    }
    if (EMOJI_GLUE.test(character)) continue;
    // An accent NFC could not compose with its letter: the letter stays, the accent goes (as é -> e).
    if (COMBINING_MARK.test(character)) continue;
    const ascii = TRANSLITERABLE.test(character) && !EMOJI.test(character) ? anyAscii(character) : '';
    // any-ascii writes pictographs as ":name:" shortcodes and drops what it cannot map: both refused.
    if (ascii === '' || /^:.+:$/.test(ascii) || !PRINTABLE_ASCII.test(ascii)) unwritable.add(character);
    else text += ascii;
  }
  if (unwritable.size > 0) return { ok: false, unwritable: [...unwritable] };
  return { ok: true, text: text.replace(/ +/g, ' ').trim() };
}

/** Splits `text` into pieces of at most `width` characters, at spaces where it can. */
export function splitText(text: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > 0 ? space : width;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

/** `1234.5` -> "1234.5", `1200` -> "1200": at most two decimals, no trailing zeros (X12 type R). */
export function formatDecimal(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return String(rounded);
}

/** Digits of an X12 decimal (type R) or number (N0/N2): what its length limits count. */
export function digitCount(value: string): number {
  return value.replace(/[^0-9]/g, '').length;
}
