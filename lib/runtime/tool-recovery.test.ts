import { describe, expect, it } from 'vitest';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

describe('tools that fail well (virtual clock, whole stack)', () => {
  it('CodeSmith loop guard: a model repeating a failing call is blocked on the third identical call, then recovers', async () => {
    const events = await runToEnd({ policy: 'repeat-on-failure', preset: 'codesmith' });
    const reads = ofType(events, 'tool_call').filter((t) => t.tool === 'read_file');
    expect(reads.slice(0, 3).map((t) => t.status)).toEqual(['error', 'error', 'blocked']);
    const guards = ofType(events, 'tool_guard');
    expect(guards[0]).toMatchObject({ kind: 'blocked', tool: 'read_file' });
    expect(guards.some((g) => g.kind === 'warning' && g.consecutive_failures === 3)).toBe(true);
    // The blocked call never ran: its result tells the model why instead.
    expect(reads[2]!.result).toMatch(/has failed 3 times in a row/);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('course SafeExecutor: an exact repeat of a failed call is short-circuited without running', async () => {
    const events = await runToEnd({ policy: 'repeat-on-failure', preset: 'course' });
    const reads = ofType(events, 'tool_call').filter((t) => t.tool === 'read_file');
    expect(reads[0]).toMatchObject({ status: 'error', is_error: true });
    expect(reads[0]!.result).toMatch(/Did you mean: README\.md/);
    expect(reads[1]).toMatchObject({ status: 'short_circuit', is_error: true });
    expect(reads[1]!.latency_ms).toBe(0);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('course SafeExecutor: a crashing tool spends its failure budget and is disabled for the run', async () => {
    const events = await runToEnd({
      preset: 'course',
      faults: { rules: [], tools: [{ id: 'crash', tool: 'read_file', enabled: true, kind: 'throw' }] },
    });
    const disabled = ofType(events, 'tool_guard').find((g) => g.kind === 'disabled');
    expect(disabled).toMatchObject({ tool: 'read_file' });
    const failures = ofType(events, 'tool_call').filter(
      (t) => t.tool === 'read_file' && t.status === 'error',
    );
    expect(failures).toHaveLength(3);
    expect(failures.at(-1)!.result).toMatch(/disabled for the rest of this run/);
    // The run itself survives: the executor never throws.
    expect(terminateOf(events).reason).toBe('end_turn');
  });

  it('course output truncation: a huge read is cut with a note, and the model narrows its next look', async () => {
    const events = await runToEnd({ scenario: 'huge-log', preset: 'course' });
    const calls = ofType(events, 'tool_call');
    const logRead = calls.find(
      (t) => t.tool === 'read_file' && JSON.stringify(t.args).includes('service.log'),
    )!;
    expect(logRead.truncated_chars).toBeGreaterThan(100_000);
    expect(logRead.result!.length).toBeLessThan(4_600);
    expect(logRead.result).toMatch(/offset|narrower/i);
    const after = calls.slice(calls.indexOf(logRead) + 1);
    expect(after.some((t) => t.tool === 'search' && (t.result_chars ?? 0) < 4_000)).toBe(true);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('unknown tools and schema-breaking arguments come back as specific is_error results', async () => {
    const unknown = await runToEnd({ policy: 'hallucinate-tool', preset: 'course' });
    const [ghost] = ofType(unknown, 'tool_call').filter((t) => t.status === 'unknown_tool');
    expect(ghost!.result).toMatch(/no tool named .*Available tools: list_files, read_file/);

    const badArgs = await runToEnd({ policy: 'bad-args', preset: 'course' });
    const [invalid] = ofType(badArgs, 'tool_call').filter((t) => t.status === 'invalid_args');
    expect(invalid!.result).toMatch(/field "path": expected string, received number/);
    expect(terminateOf(badArgs).complete).toBe(true);
  });
});
