/**
 * Room mode's ownership records: which visitor's session made a run, a sweep, a cassette, a
 * prompt set or an uploaded task (the `visitor` column of each table). `null` is nobody's: made outside room mode,
 * or stored before the column existed. A sweep's runs are their sweep's visitor's.
 */
export type OwnedKind = 'run' | 'sweep' | 'cassette' | 'prompt_set' | 'task';

export interface VisitorStore {
  /** Records `visitor` as the maker of a row that exists (a prompt set's id is `name@version`). */
  claim(kind: OwnedKind, id: string, visitor: string): Promise<void>;
  /** The visitor who made it (`null`: nobody's); undefined when there is no such row. */
  visitorOf(kind: OwnedKind, id: string): Promise<string | null | undefined>;
  /** The ids (prompt sets: `name@version`) this visitor made, of one kind. */
  idsOf(kind: OwnedKind, visitor: string): Promise<Set<string>>;
  /** This visitor's runs, not of a sweep, newest first: the run list's order. */
  runIdsOf(visitor: string, limit: number): Promise<string[]>;
  /** How many of this visitor's runs the store holds as running. */
  runningRunsOf(visitor: string): Promise<number>;
  /** Every visitor's runs the store holds as running (room mode's runs in flight). */
  runningRuns(): Promise<{ id: string; visitor: string }[]>;
  /** Keeps a share link of a run: the SHA-256 of its token (hex), never the token. */
  addShare(runId: string, tokenHash: string, at: number): Promise<void>;
  /** The run a share link shows; undefined for a hash never stored, or revoked. */
  runOfShare(tokenHash: string): Promise<string | undefined>;
  /** Revokes every share link of the run; how many were live. */
  revokeShares(runId: string, at: number): Promise<number>;
  /** Records a lesson played: its slug and its two sides' runs. */
  addLessonPlay(play: LessonPlay): Promise<void>;
  /** Every lesson play, oldest first. */
  lessonPlays(): Promise<LessonPlay[]>;
  close(): Promise<void>;
}

/** A lesson played through the play route: the mechanism-on and -off runs, and whose they are. */
export interface LessonPlay {
  slug: string;
  on: string;
  off: string;
  visitor: string | null;
  createdAt: number;
}

/** A prompt set's id in ownership records. */
export function promptSetKey(name: string, version: number): string {
  return `${name}@${version}`;
}
