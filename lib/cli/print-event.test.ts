import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { describeEvent } from './print-event';

const envelope = (inner: Record<string, unknown>) =>
  ({
    run_id: 'r',
    seq: 40,
    ts: 2500,
    event: 'subagent_event',
    iteration: 1,
    child: 'c2',
    call_id: 'call_1',
    try: 1,
    inner,
  }) as unknown as RunEvent;

describe("the CLI's line for a sub-agent's event", () => {
  it("is the child's own event's line, marked with the child, and nothing for an event a terminal does not follow", () => {
    const line = describeEvent(
      envelope({
        event: 'tool_call',
        iteration: 2,
        call_id: 'x',
        tool: 'read_file',
        args: { path: 'README.md' },
        result_chars: 310,
        is_error: false,
        latency_ms: 0,
        status: 'ok',
      }),
    );
    expect(line).toBe('    2.5s  [c2] #2   ✓ read_file({"path":"README.md"}) → 310 chars');
    expect(
      describeEvent(
        envelope({ event: 'content_delta', iteration: 2, attempt: 1, index: 0, kind: 'text', text: 'a' }),
      ),
    ).toBeUndefined();
  });
});
