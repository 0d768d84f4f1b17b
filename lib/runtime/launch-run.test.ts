import { describe, expect, it } from 'vitest';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

describe('a full run on a simulated vendor', () => {
  it.each(['sim-anthropic', 'sim-openai'] as const)(
    '%s: the agent fixes the bug and ends its turn',
    async (vendor) => {
      const events = await runToEnd({ provider: { vendor } });
      const end = terminateOf(events);
      expect(end).toMatchObject({ reason: 'end_turn', complete: true });
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
      expect(events[0]!.event).toBe('run_start');

      const tools = ofType(events, 'tool_call');
      expect(tools.length).toBeGreaterThanOrEqual(4);
      const checks = tools.filter((t) => t.tool === 'run_check');
      expect(checks.at(-1)?.is_error).toBe(false);
      expect(checks.at(-1)?.result).toMatch(/pass/i);
      expect(tools.some((t) => t.tool === 'edit_file' && !t.is_error)).toBe(true);

      const calls = ofType(events, 'llm_call');
      expect(calls.at(-1)?.stop_reason).toBe('end_turn');
      expect(end.input_tokens).toBe(calls.reduce((n, c) => n + c.input_tokens, 0));
      expect(end.usd_so_far).toBeGreaterThan(0);
    },
  );

  it('keeps thinking with its credential on the Anthropic dialect, and the vendor accepts it back', async () => {
    const events = await runToEnd({ provider: { vendor: 'sim-anthropic' } });
    const thinking = ofType(events, 'llm_call')
      .flatMap((c) => c.message?.parts ?? [])
      .filter((p) => p.type === 'thinking');
    expect(thinking.length).toBeGreaterThan(0);
    for (const part of thinking) {
      expect(part.type === 'thinking' && part.credential?.vendor).toBe('sim-anthropic');
    }
    // Signatures were sent back on every later turn and never rejected.
    expect(ofType(events, 'model_error')).toEqual([]);
  });

  it('gives the same log, timestamps included, for the same config and seed', async () => {
    const a = await runToEnd({ seed: 11 });
    const b = await runToEnd({ seed: 11 });
    expect(b).toEqual(a);
    const c = await runToEnd({ seed: 12 });
    expect(c).not.toEqual(a);
  });

  it('ends with terminate (aborted) when aborted mid-run', async () => {
    const events = await runToEnd(
      {},
      {
        onEvent: (event, control) => {
          if (event.event === 'tool_call') control({ action: 'abort' });
        },
      },
    );
    expect(terminateOf(events)).toMatchObject({ reason: 'aborted', complete: false });
    expect(ofType(events, 'control')[0]).toMatchObject({ action: 'abort' });
  });

  it('a task of its own on a simulated vendor: it looks around, answers honestly, and is titled by the task', async () => {
    const events = await runToEnd({ task: 'Summarize what this project does in two sentences.' });
    expect(ofType(events, 'tool_call').map((t) => t.tool)).toEqual(['list_files', 'read_file']);
    const answer = ofType(events, 'llm_call')
      .filter((c) => !c.background)
      .at(-1)!
      .message!.parts.find((p) => p.type === 'text');
    expect(answer?.type === 'text' && answer.text).toMatch(/README\.md says: "A very small blog helper/);
    expect(ofType(events, 'run_title')[0]?.title).toBe('Summarize what this project does in');
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('closes its own log when the run cannot start: one terminate that says why', async () => {
    const events = await runToEnd({ scenario: 'no-such-scenario' });
    expect(events).toEqual([
      expect.objectContaining({
        seq: 0,
        event: 'terminate',
        reason: 'internal_error',
        complete: false,
        message: 'unknown scenario "no-such-scenario"',
      }),
    ]);
  });

  it('stops at the iteration budget', async () => {
    const events = await runToEnd({ budgets: { maxIterations: 2, maxCostUsd: 1 } });
    expect(terminateOf(events)).toMatchObject({ reason: 'max_iterations', complete: false, iteration: 2 });
  });
});
