import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol';
import { BreakpointSchema } from '@/lib/protocol/pause';
import { BREAKABLE_EVENTS } from '@/lib/protocol/pause-words';
import { formProblems } from './form-problems';
import { buildRunRequest, DEFAULT_FORM, type PlaygroundForm } from './playground-form';
import {
  APPROVAL_TIMEOUT_RULE,
  BREAKPOINT_RULES,
  approvalMode,
  approvalProblems,
  breakpointFrom,
  withApproval,
  withBreakpoints,
  type ApprovalMode,
} from './pause-form';

const ROW = { kind: 'event', event: 'retry_scheduled', tool: '', request: 1, usd: 0.05 } as const;

/** The config the form sends, as the server parses it (throws with the server's words when it refuses). */
function sent(form: PlaygroundForm) {
  return RunConfigSchema.parse(buildRunRequest(form).config);
}

describe('breakpoints from the control panel', () => {
  it('every kind the add row makes is a breakpoint the server accepts, and goes in the config as made', () => {
    const breakpoints = [
      ...BREAKABLE_EVENTS.map((event) => breakpointFrom({ ...ROW, kind: 'event', event })!),
      breakpointFrom({ ...ROW, kind: 'tool' })!,
      breakpointFrom({ ...ROW, kind: 'tool', tool: 'write_file' })!,
      breakpointFrom({ ...ROW, kind: 'request', request: BREAKPOINT_RULES.request.min })!,
      breakpointFrom({ ...ROW, kind: 'request', request: BREAKPOINT_RULES.request.max })!,
      breakpointFrom({ ...ROW, kind: 'cost', usd: BREAKPOINT_RULES.cost.min })!,
      breakpointFrom({ ...ROW, kind: 'cost', usd: 0.25 })!,
    ];
    const pause = withBreakpoints({}, breakpoints);
    const config = sent({ ...DEFAULT_FORM, pause });
    expect(config.pause?.breakpoints).toEqual(breakpoints);
    expect(breakpoints).toContainEqual({ on: 'tool' });
    expect(breakpoints).toContainEqual({ on: 'tool', tool: 'write_file' });
  });

  it('holds a number to the bounds the server’s schema does: none past them is made', () => {
    const { request, cost } = BREAKPOINT_RULES;
    for (const n of [request.min - 1, request.max + 1, 1.5, Number.NaN]) {
      expect(breakpointFrom({ ...ROW, kind: 'request', request: n }), String(n)).toBeUndefined();
      expect(BreakpointSchema.safeParse({ on: 'request', request: n }).success, String(n)).toBe(false);
    }
    for (const usd of [cost.min - 0.01, cost.max + 1, Number.NaN]) {
      expect(breakpointFrom({ ...ROW, kind: 'cost', usd }), String(usd)).toBeUndefined();
      expect(BreakpointSchema.safeParse({ on: 'cost', usd }).success, String(usd)).toBe(false);
    }
    expect(BreakpointSchema.safeParse({ on: 'cost', usd: cost.max }).success).toBe(true);
  });

  it('removing the last breakpoint with no approval leaves no pause config at all', () => {
    expect(withBreakpoints({ breakpoints: [{ on: 'tool' }] }, [])).toBeNull();
    expect(withBreakpoints({ approval: { tools: 'all' } }, [])).toEqual({
      approval: { tools: 'all' },
      breakpoints: [],
    });
  });
});

describe('tool approval from the control panel', () => {
  const modes: ApprovalMode[] = ['writes', 'all', 'named'];
  it.each(modes)('%s, waiting or denied after a time: the server accepts what the form sends', (mode) => {
    for (const timeoutSec of [null, APPROVAL_TIMEOUT_RULE.min, 90, APPROVAL_TIMEOUT_RULE.max]) {
      const pause = withApproval(
        { breakpoints: [{ on: 'request', request: 2 }] },
        {
          mode,
          tools: ['write_file', 'run_check'],
          timeoutSec,
        },
      );
      const form = { ...DEFAULT_FORM, pause };
      expect(formProblems(form)).toEqual([]);
      const config = sent(form);
      expect(approvalMode(config.pause?.approval)).toBe(mode);
      expect(config.pause?.approval?.tools).toEqual(mode === 'named' ? ['write_file', 'run_check'] : mode);
      expect(config.pause?.approval?.timeoutMs).toBe(timeoutSec === null ? undefined : timeoutSec * 1000);
      expect(config.pause?.breakpoints).toEqual([{ on: 'request', request: 2 }]);
    }
  });

  it('off drops the approval, and the whole config when no breakpoint is left', () => {
    expect(
      withApproval({ approval: { tools: 'all' } }, { mode: 'off', tools: [], timeoutSec: null }),
    ).toBeNull();
    expect(
      withApproval(
        { breakpoints: [{ on: 'tool' }], approval: { tools: 'all' } },
        { mode: 'off', tools: [], timeoutSec: null },
      ),
    ).toEqual({ breakpoints: [{ on: 'tool' }] });
  });

  it('what the server would refuse is a problem that says what to fix, and Run waits for it', () => {
    const cases: Array<[{ mode: ApprovalMode; tools: string[]; timeoutSec: number | null }, RegExp]> = [
      [{ mode: 'named', tools: [], timeoutSec: null }, /names no tool: tick at least one/],
      [{ mode: 'all', tools: [], timeoutSec: 0.0001 }, /must be at least 0\.001/],
      [{ mode: 'all', tools: [], timeoutSec: 100_000 }, /must be at most 86,?400/],
      [{ mode: 'writes', tools: [], timeoutSec: Number.NaN }, /is empty/],
    ];
    for (const [choice, words] of cases) {
      const pause = withApproval({}, choice);
      const problems = approvalProblems(pause);
      expect(problems.map((p) => `${p.label} ${p.message}`).join('; '), JSON.stringify(choice)).toMatch(
        words,
      );
      expect(formProblems({ ...DEFAULT_FORM, pause }).length).toBeGreaterThan(0);
      // The server refuses the same config: the check is not stricter or looser than it.
      expect(RunConfigSchema.safeParse(buildRunRequest({ ...DEFAULT_FORM, pause }).config).success).toBe(
        false,
      );
    }
  });
});
