/** Reading a run's log from a real API server process: its SSE stream as a client sees it, and its stored trace. */

export interface Received {
  seq: number;
  json: string;
  event: string;
}

/**
 * Reads a run's SSE stream (from `lastEventId` when given) until it ends or breaks, pushing each
 * event as it arrives. Never rejects: a server killed mid-stream just ends the read.
 */
export async function follow(
  base: string,
  runId: string,
  into: Received[],
  lastEventId?: number,
): Promise<void> {
  try {
    const response = await fetch(`${base}/runs/${runId}/events`, {
      headers: lastEventId === undefined ? {} : { 'Last-Event-ID': String(lastEventId) },
    });
    if (!response.ok || !response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data) as { seq: number; event: string };
        into.push({ seq: event.seq, json: data, event: event.event });
      }
    }
  } catch {
    // The connection broke (the server was killed): what arrived is what the client saw.
  }
}

export async function storedLog(base: string, runId: string): Promise<{ seq: number; json: string }[]> {
  const text = await (await fetch(`${base}/runs/${runId}/trace`)).text();
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ seq: (JSON.parse(line) as { seq: number }).seq, json: line }));
}

/** A JSON text in one canonical form, to compare an event as sent with the event as stored. */
export const canonical = (json: string): string => JSON.stringify(JSON.parse(json));

/** A paced run: about 40 s of run time (two rate limits of 15 s waited out), 8 s of wall time at 0.2. */
export function pacedConfig(seed: number): Record<string, unknown> {
  return {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed,
    clock: 'paced',
    timeScale: 0.2,
    faults: {
      rules: [
        {
          id: 'limited',
          when: { kind: 'requests', numbers: [1, 3] },
          action: { type: 'http_error', status: 429, retryAfterSec: 15 },
        },
      ],
      tools: [],
    },
  };
}

export interface LoggedEvent {
  seq: number;
  event: string;
  run_id?: string;
  reason?: string;
}

/** A log as one uninterrupted run has it: no resume marker, seqs renumbered, no run id. */
export function uninterruptedForm(log: readonly { json: string }[]): string[] {
  return log
    .map((e) => JSON.parse(e.json) as LoggedEvent)
    .filter((e) => e.event !== 'resumed_after_restart')
    .map((e, seq) => JSON.stringify({ ...e, run_id: undefined, seq }));
}
