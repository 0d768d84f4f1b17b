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
