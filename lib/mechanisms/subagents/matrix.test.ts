import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModuleMatrixCell } from '@/lib/mechanisms/module';
import type { EventOf, PresetId, RunEvent } from '@/lib/protocol';
import { PresetIdSchema } from '@/lib/protocol';
import { runToEnd } from '@/lib/testing/run-to-end';
import { MATRIX } from './matrix';

const VENDORS = ['sim-anthropic', 'sim-openai', 'sim-openai-responses'];
const PRESETS: readonly PresetId[] = PresetIdSchema.options;
const cells = MATRIX.cells({ vendors: VENDORS, presets: PRESETS }) as ModuleMatrixCell[];
const cell = (label: string) => cells.find((c) => c.label === label)!;

/** The log with one event of a type changed. */
function edit<T extends RunEvent['event']>(
  log: readonly RunEvent[],
  type: T,
  pick: (e: EventOf<T>) => boolean,
  change: (e: EventOf<T>) => Partial<EventOf<T>>,
): RunEvent[] {
  let done = false;
  return log.map((e) => {
    if (done || e.event !== type || !pick(e as EventOf<T>)) return e;
    done = true;
    return { ...e, ...change(e as EventOf<T>) } as RunEvent;
  });
}

describe('the sub-agent rows of the fault matrix', () => {
  it('are five rows on every vendor × preset and two more on CodeSmith alone, each cell a run that delegates', () => {
    expect(cells).toHaveLength(5 * VENDORS.length * PRESETS.length + 2 * VENDORS.length);
    for (const c of cells) expect(c.config.recovery?.tools?.delegate).toBe(true);
    // docs/cli.md states the count.
    expect(readFileSync('docs/cli.md', 'utf8')).toContain(
      `sub-agent rows (${cells.length} cells: five rows on every vendor × preset`,
    );
  });

  it('hold each run to the tree’s accounts: requests, the running sum, the decision table, the transport’s count, the run clock', async () => {
    const limited = cell('sim-anthropic × sdk-default × the children hit one rate limit');
    const log = await runToEnd(limited.config);
    expect(limited.check(log)).toEqual([]);
    const ends = log.filter((e): e is EventOf<'subagent_end'> => e.event === 'subagent_end');
    // The SDK resent requests beneath the children: the tree's count needs them.
    expect(log.some((e) => e.event === 'sdk_retry')).toBe(true);

    const first = ends[0]!;
    expect(
      limited.check(
        edit(
          log,
          'subagent_end',
          (e) => e.seq === first.seq,
          (e) => ({ requests: e.requests + 1 }),
        ),
      ),
    ).toEqual(
      expect.arrayContaining([
        `${first.child}.${first.try}'s end counts ${first.requests + 1} requests, its log ${first.requests}`,
      ]),
    );
    const last = ends.at(-1)!;
    expect(
      limited.check(
        edit(
          log,
          'subagent_end',
          (e) => e.seq === last.seq,
          (e) => ({ children_requests: e.children_requests - 1 }),
        ),
      ),
    ).toEqual(expect.arrayContaining([expect.stringContaining('children_requests')]));
    const retried = ends.find((e) => e.next === 'retry')!;
    expect(
      limited.check(
        edit(
          log,
          'subagent_end',
          (e) => e.seq === retried.seq,
          () => ({ next: 'give_up' }),
        ),
      ),
    ).toEqual(
      expect.arrayContaining([
        `${retried.child}.${retried.try} vendor_failed: the parent did give_up, the table says retry`,
      ]),
    );
    // An SDK resend the log lost: the tree no longer adds up to what the limit refused.
    const lost = log.filter((e) => e !== log.find((x) => x.event === 'sdk_retry'));
    expect(limited.check(lost)).toEqual(
      expect.arrayContaining([expect.stringContaining('but the tree had sent')]),
    );
    const late = edit(
      log,
      'terminate',
      () => true,
      () => ({ ts: 1_800_001 }),
    );
    expect(limited.check(late)).toEqual(
      expect.arrayContaining(['ended at 1800001 ms of run clock, past its budget of 1800000 ms']),
    );
  }, 60_000);

  it('read the promise from the effective config: the loop guard, the ladder, the child retries', () => {
    const says = (label: string) => cell(label).promise;
    expect(says('sim-openai × codesmith × a child loops')).toContain('its loop guard blocks');
    expect(says('sim-openai × course × a child loops')).toContain('no loop guard');
    expect(says('sim-openai × codesmith × the vendor is down for the whole tree')).toContain(
      'retries_exhausted',
    );
    expect(says('sim-openai × naive × the vendor is down for the whole tree')).toContain('model_error');
    expect(
      says('sim-openai × codesmith × the vendor is down for the whole tree, child retries off'),
    ).toContain('given up at once');
    expect(says('sim-openai × course × the children hit one rate limit')).toContain(
      'the run ends model_error',
    );
    expect(says('sim-openai × sdk-default × the children hit one rate limit')).toContain(
      'the run ends end_turn',
    );
  });
});
