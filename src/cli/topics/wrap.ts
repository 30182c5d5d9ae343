/** Two-column help text (a term, then its text wrapped to the terminal), as `shipper help environment` prints. */
export function termList(rows: ReadonlyArray<{ term: string; text: string }>, width = 100): string[] {
  const termWidth = Math.min(34, Math.max(...rows.map((row) => row.term.length)) + 2);
  const textWidth = Math.max(40, Math.max(60, width) - termWidth - 2);
  const out: string[] = [];
  for (const { term, text } of rows) {
    const lines = wrapWords(text, textWidth);
    // A term wider than its column stands on a line of its own.
    if (term.length + 2 > termWidth) out.push(`  ${term}`);
    lines.forEach((text, index) => out.push(`  ${(index === 0 && term.length + 2 <= termWidth ? term : '').padEnd(termWidth)}${text}`));
  }
  return out;
}

/** Words into lines of at most `width` characters (a longer word stands alone). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
