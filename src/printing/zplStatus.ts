/**
 * The answer of a Zebra printer to `~HS` (host status): three lines, each framed by STX and ETX.
 * Pure. Field positions from the ZPL II programming guide:
 *   1: aaa,b,c,dddd,... b = paper out, c = paused
 *   2: mmm,n,o,p,q,...  o = head up (open), p = ribbon out, q = thermal transfer (a ribbon is used)
 */
export interface PrinterStatus {
  paperOut: boolean;
  paused: boolean;
  headOpen: boolean;
  ribbonOut: boolean;
}

/** The three status strings, once all have arrived; undefined while incomplete or when this is no ~HS answer. */
export function parseHostStatus(text: string): PrinterStatus | undefined {
  const frames = [...text.matchAll(/\x02([^\x02\x03]*)\x03/g)].map((match) => match[1]!.split(','));
  if (frames.length < 2) return undefined;
  const [first, second] = frames as [string[], string[]];
  if (first.length < 3 || second.length < 4) return undefined;
  const flag = (value: string | undefined) => value?.trim() === '1';
  return { paperOut: flag(first[1]), paused: flag(first[2]), headOpen: flag(second[2]), ribbonOut: flag(second[3]) && flag(second[4]) };
}

/** What keeps the printer from printing, in words; empty when it is ready. */
export function statusProblems(status: PrinterStatus): string[] {
  const problems: string[] = [];
  if (status.paperOut) problems.push('paper out');
  if (status.headOpen) problems.push('head open');
  if (status.ribbonOut) problems.push('ribbon out');
  if (status.paused) problems.push('paused');
  return problems;
}
