import { describe, expect, it } from 'vitest';
import { findContradictions } from '@/lib/run-view/explain/why-claims';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { runSteps } from '@/lib/compare/run-steps';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/** The damaged-args model through the whole stack: the real SDKs, the strict simulated vendors, the executor's ladder. */
describe.each(['sim-anthropic', 'sim-openai'] as const)(
  'the argument repair ladder through the loop on %s',
  (vendor) => {
    it('CodeSmith repairs every kind of damage and the calls run on the first try', async () => {
      const events = await runToEnd({
        provider: { vendor },
        policy: 'damaged-args',
        preset: 'codesmith',
        seed: 5,
      });
      const repairs = ofType(events, 'arg_repair');
      expect(repairs.map((r) => [r.tool, r.rung, r.changes])).toEqual([
        ['read_file', 'json', ['trailing comma removed']],
        ['read_file', 'json', ['single quotes replaced by double quotes']],
        ['read_file', 'json', ['unquoted keys quoted']],
        ['search', 'coerce', ['max_results: "50" → 50']],
        ['edit_file', 'json', ['cut-off closing brace added']],
      ]);
      expect(repairs.every((r) => r.next === 'run')).toBe(true);
      const calls = ofType(events, 'tool_call');
      // Each repaired call is marked, ran with the repaired arguments, and no call failed on its arguments.
      expect(calls.filter((c) => c.repaired).map((c) => c.call_id)).toEqual(repairs.map((r) => r.call_id));
      expect(calls.find((c) => c.tool === 'search')).toMatchObject({
        status: 'ok',
        repaired: ['coerce'],
        args: { pattern: 'replace\\(', max_results: 50 },
      });
      expect(calls.filter((c) => c.status === 'invalid_args')).toEqual([]);
      expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
      expect(ofType(events, 'task_verdict')[0]!.verdict).toBe('done');
      // What each rung says comes next is what the log shows.
      expect(findContradictions(events)).toEqual([]);

      // The run view marks each repaired call, with the rungs' own words.
      const view = foldRawEvents(initialRunViewState(), events);
      const shown = view.turns.flatMap((t) => t.toolCalls).filter((c) => c.repairs);
      expect(shown.map((c) => [c.tool, c.repaired, c.repairs!.map((r) => r.why)])).toEqual(
        repairs.map((r) => [r.tool, [r.rung], [r.why]]),
      );
      expect(shown.find((c) => c.tool === 'search')!.args).toEqual({
        pattern: 'replace\\(',
        max_results: 50,
      });
      // The comparison's steps: each rung a recovery step, each repaired call labelled so.
      const steps = runSteps(events);
      expect(
        steps.filter((st) => st.kind === 'recovery' && st.label.startsWith('argument repair')),
      ).toHaveLength(5);
      expect(
        steps.filter((st) => st.kind === 'tool' && st.label.endsWith('→ ok (arguments repaired)')),
      ).toHaveLength(5);
    });

    it('naive only re-asks: each damaged call fails with the specific error and is sent again', async () => {
      const events = await runToEnd({
        provider: { vendor },
        policy: 'damaged-args',
        preset: 'naive',
        seed: 5,
      });
      expect(ofType(events, 'arg_repair')).toEqual([]);
      const invalid = ofType(events, 'tool_call').filter((c) => c.status === 'invalid_args');
      expect(invalid.map((c) => c.tool)).toEqual([
        'read_file',
        'read_file',
        'read_file',
        'search',
        'edit_file',
      ]);
      expect(invalid[0]!.result).toMatch(
        /^Error: invalid arguments for read_file: the arguments are not valid JSON/,
      );
      expect(invalid[3]!.result).toMatch(/field "max_results": expected number, received string "50"/);
      expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
      const turns = (log: typeof events) => ofType(log, 'iteration_start').length;
      const repaired = await runToEnd({
        provider: { vendor },
        policy: 'damaged-args',
        preset: 'codesmith',
        seed: 5,
      });
      expect(turns(events) - turns(repaired)).toBe(5);
    });
  },
);
