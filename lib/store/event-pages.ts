import type { RunStore, StoredEventRow } from './run-store';

/** Rows a reader of a long log holds at once: a few hundred kB of JSON, a few ms to parse. */
export const EVENT_PAGE = 2_000;

/**
 * A run's stored log a page at a time (at most `pageSize` rows each, in seq order), each page
 * read when the one before is done with: reading a log costs memory for one page, not for
 * the whole log, and time in proportion to its length. Each page is its own query, so nothing
 * holds the database between pages (a writer can append meanwhile; a page reads what is there).
 */
export async function* eventPages(
  store: Pick<RunStore, 'readEventBodies'>,
  { runId, afterSeq = -1, pageSize = EVENT_PAGE }: { runId: string; afterSeq?: number; pageSize?: number },
): AsyncGenerator<StoredEventRow[]> {
  for (let after = afterSeq; ;) {
    const page = await store.readEventBodies({ runId, afterSeq: after, limit: pageSize });
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    after = page.at(-1)!.seq;
  }
}
