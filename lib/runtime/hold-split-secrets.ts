import type { EventOf, RunEvent } from '@/lib/protocol';
import type { Redactor } from './redact-secrets';

/** Events that can arrive while a response streams without ending any of its blocks. */
const MID_STREAM: ReadonlySet<RunEvent['event']> = new Set([
  'content_delta',
  'keepalive',
  'fault_injected',
  'log',
]);

type Delta = EventOf<'content_delta'>;

/**
 * Redaction over the joined stream. A secret a model or vendor echoes can arrive split across
 * two content deltas (each redacted alone, neither contains it whole). Per content block, the
 * end of a delta that could be the start of a secret is held back and sent with the block's
 * next delta, where the joined text is redacted; when the attempt ends (the first event that is
 * not part of its stream) what is still held goes out as one more delta of its block, just
 * before that event. So no delta ever holds a secret or a part of one, and the deltas of a
 * block still join to the redacted text of the whole block.
 *
 * Returns the events to hand on, in order: the one given (perhaps with less text), preceded by
 * the held text of blocks it ends. Their seq is for the caller to number.
 */
export function createSplitSecretHold(redactor: () => Redactor): (event: RunEvent) => RunEvent[] {
  const held = new Map<string, { text: string; delta: Delta }>();
  const keyOf = (d: Delta): string => `${d.iteration}:${d.attempt}:${d.index}:${d.kind}`;

  const release = (at: RunEvent): RunEvent[] => {
    const out: RunEvent[] = [];
    for (const { text, delta } of held.values()) {
      const { run_id, seq, iteration, attempt, index, kind, call_id, tool } = delta;
      out.push({
        run_id,
        seq,
        ts: at.ts,
        event: 'content_delta',
        iteration,
        attempt,
        index,
        kind,
        text: redactor().text(text),
        ...(call_id ? { call_id } : {}),
        ...(tool ? { tool } : {}),
      });
    }
    held.clear();
    return out;
  };

  return (event) => {
    if (event.event !== 'content_delta') {
      if (held.size === 0 || MID_STREAM.has(event.event)) return [event];
      return [...release(event), event];
    }
    const r = redactor();
    const key = keyOf(event);
    const before = held.get(key);
    if (r.empty && !before) return [event];
    const joined = r.text((before?.text ?? '') + event.text);
    const cut = r.holdFrom(joined);
    if (cut < joined.length) held.set(key, { text: joined.slice(cut), delta: event });
    else held.delete(key);
    event.text = joined.slice(0, cut);
    return [event];
  };
}
