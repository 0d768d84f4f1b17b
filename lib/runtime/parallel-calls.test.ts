import { describe, expect, it } from 'vitest';
import { findContradictions } from '@/lib/run-view/explain/why-claims';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import type { RunConfigInput, ToolFault } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

type Vendor = 'sim-anthropic' | 'sim-openai';

/** Every tool takes 2 s of run time; the model asks for every read it needs at once. */
function config(
  vendor: Vendor,
  maxParallel: number,
  extra: ToolFault[] = [],
): Omit<RunConfigInput, 'provider'> & { provider: RunConfigInput['provider'] } {
  return {
    provider: { vendor },
    preset: 'codesmith',
    policy: 'parallel-reads',
    seed: 4,
    recovery: { tools: { maxParallel } },
    faults: {
      rules: [],
      tools: [{ id: 'slow', tool: '*', kind: 'slow', delayMs: 2_000, enabled: true }, ...extra],
    },
  };
}

/** The ids of the tool results the request answering the first turn carries, in the order sent. */
function answeredIds(vendor: Vendor, body: string): { ids: string[]; errors: boolean[]; messages: number } {
  const request = JSON.parse(body) as { messages: Record<string, unknown>[] };
  if (vendor === 'sim-openai') {
    const tools = request.messages.filter((m) => m.role === 'tool');
    return {
      ids: tools.map((m) => String(m.tool_call_id)),
      errors: tools.map((m) => String(m.content).includes('crashed (tool fault')),
      messages: tools.length,
    };
  }
  const users = request.messages.filter((m) => m.role === 'user' && Array.isArray(m.content));
  const withResults = users.filter((m) =>
    (m.content as { type: string }[]).some((b) => b.type === 'tool_result'),
  );
  const blocks = withResults.flatMap((m) =>
    (m.content as { type: string; tool_use_id?: string; is_error?: boolean }[]).filter(
      (b) => b.type === 'tool_result',
    ),
  );
  return {
    ids: blocks.map((b) => b.tool_use_id!),
    errors: blocks.map((b) => b.is_error === true),
    messages: withResults.length,
  };
}

/** Several calls in one turn, through the real SDKs and the strict simulated vendors. */
describe.each(['sim-anthropic', 'sim-openai'] as const)(
  'parallel tool calls through the loop on %s',
  (vendor) => {
    it('read-only calls run at once up to the limit, and their results go back in call order in one message', async () => {
      const bodies: string[] = [];
      // list_files takes a second longer, so the calls end in another order than they were made.
      const slowList: ToolFault = {
        id: 'slow-list',
        tool: 'list_files',
        kind: 'slow',
        delayMs: 1_000,
        enabled: true,
      };
      const events = await runToEnd(config(vendor, 4, [slowList]), {
        onVendorRequest: ({ body }) => bodies.push(body),
      });
      const batches = ofType(events, 'tool_batch').filter((b) => b.iteration === 1);
      expect(batches.map((b) => [b.tools, b.parallel])).toEqual([
        [['list_files', 'read_file', 'read_file', 'read_file'], true],
        [['search'], false],
      ]);
      expect(batches[1]!.why).toBe('search runs after the 4 calls before it: at most 4 run at once');
      // The four start together; the reads end 2 s later, list_files at 3 s; the fifth starts when all are done.
      const starts = ofType(events, 'tool_start').filter((e) => e.iteration === 1);
      const ends = ofType(events, 'tool_call').filter((e) => e.iteration === 1);
      const t0 = starts[0]!.ts;
      expect(starts.slice(0, 4).map((e) => e.ts - t0)).toEqual([0, 0, 0, 0]);
      expect(ends.slice(0, 4).map((e) => [e.tool, e.ts - t0])).toEqual([
        ['read_file', 2_000],
        ['read_file', 2_000],
        ['read_file', 2_000],
        ['list_files', 3_000],
      ]);
      expect(starts[4]!.ts - t0).toBe(3_000);
      // The second request answers all five calls, in the order the model made them.
      const { ids, messages } = answeredIds(vendor, bodies[1]!);
      expect(ids).toEqual(starts.map((s) => s.call_id));
      expect(messages).toBe(vendor === 'sim-openai' ? 5 : 1);
      expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
      expect(findContradictions(events)).toEqual([]);
      // The run view holds the group, so the waterfall can draw the four as parallel bars.
      const view = foldRawEvents(initialRunViewState(), events);
      expect(view.turns[0]!.callMarks!.map((m) => m.pill?.testId === 'parallel')).toEqual([true, false]);
    });

    it('runs the same turn in less run time than one call after another', async () => {
      const parallel = await runToEnd(config(vendor, 4));
      const sequential = await runToEnd(config(vendor, 1));
      const firstTurnMs = (log: typeof parallel) =>
        ofType(log, 'tool_call')
          .filter((e) => e.iteration === 1)
          .at(-1)!.ts - ofType(log, 'tool_start')[0]!.ts;
      expect(firstTurnMs(parallel)).toBe(4_000);
      expect(firstTurnMs(sequential)).toBe(10_000);
      expect(
        ofType(sequential, 'tool_batch').every((b) => !b.parallel && b.why.endsWith('(at most 1 at once)')),
      ).toBe(true);
      expect(terminateOf(parallel).ts).toBeLessThan(terminateOf(sequential).ts);
    });

    it('one call failing among several leaves the others’ results as they are', async () => {
      const bodies: string[] = [];
      const events = await runToEnd(
        config(vendor, 4, [{ id: 'boom', tool: 'read_file', kind: 'throw', times: 1, enabled: true }]),
        {
          onVendorRequest: ({ body }) => bodies.push(body),
        },
      );
      const first = ofType(events, 'tool_call').filter((e) => e.iteration === 1);
      expect(first.filter((c) => c.is_error).map((c) => c.tool)).toEqual(['read_file']);
      expect(first.filter((c) => !c.is_error)).toHaveLength(4);
      const { ids, errors } = answeredIds(vendor, bodies[1]!);
      expect(ids).toHaveLength(5);
      expect(errors.filter(Boolean)).toHaveLength(1);
      expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    });
  },
);
