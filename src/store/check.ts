/**
 * `shipper store check|repair`: what a store's write-ahead journal holds past what was applied, and
 * cutting what cannot be applied (the file store's; a PostgreSQL store has no journal of its own).
 */

/** What `store check` found (nothing is written to find it). */
export interface JournalCheck {
  /** The journal file (the operator's: printed by the CLI, never sent over HTTP). */
  journal: string;
  bytes: number;
  applied: number;
  /** Whole lines not applied yet (committed batches whose writer stopped): the next write applies them. */
  pendingLines: number;
  /** Bytes after the last whole line, with no whole line after them: never acknowledged; the next write cuts them (`torn`: the start of a line, as a kill leaves it). */
  tail: { at: number; bytes: number; torn: boolean } | null;
  /** A bad line with whole lines after it: writes stop until `store repair` cuts from `at`. */
  damage: { at: number; bytes: number; linesAfter: number } | null;
}

/** What `store repair` did: the lines before the damage applied, the rest cut and kept in `copy`. */
export interface JournalRepair {
  found: JournalCheck;
  applied: number;
  cut: { at: number; bytes: number; copy: string } | null;
}

/** A store with a journal to check and repair. */
export interface CheckableStore {
  checkJournal(): Promise<JournalCheck>;
  repairJournal(): Promise<JournalRepair>;
}

export function isCheckable(store: unknown): store is CheckableStore {
  return typeof (store as Partial<CheckableStore>).checkJournal === 'function' && typeof (store as Partial<CheckableStore>).repairJournal === 'function';
}
