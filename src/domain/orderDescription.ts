/**
 * The order's published `description` ("what the order is, for the carrier"; required by the
 * published create and checked by its confirm) when the user gives none: the freight lines' own
 * descriptions, each once, in order, joined with "; ". `shipper ship` and `shipper import` (both
 * modes) use it, so a booking says the same whoever receives it. Pure, zod-free (the CLI loads it).
 *
 * *Decision:* longer than the published 256 characters, it is cut at the last whole line that
 * fits, with "..." (the lines themselves stay whole on the BOL); lines without a description give
 * none: undefined, and the confirm checks then name `description`.
 */
export const ORDER_DESCRIPTION_MAX = 256;

export function orderDescriptionOf(lines: ReadonlyArray<{ description?: unknown }>): string | undefined {
  const texts = [
    ...new Set(
      lines
        .map((line) => line.description)
        .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
        .map((text) => text.trim()),
    ),
  ];
  if (texts.length === 0) return undefined;
  const joined = texts.join('; ');
  if (joined.length <= ORDER_DESCRIPTION_MAX) return joined;
  let cut = '';
  for (const text of texts) {
    const next = cut === '' ? text : `${cut}; ${text}`;
    if (next.length + 5 > ORDER_DESCRIPTION_MAX) break;
    cut = next;
  }
  return cut === '' ? `${texts[0]!.slice(0, ORDER_DESCRIPTION_MAX - 3)}...` : `${cut}; ...`;
}
