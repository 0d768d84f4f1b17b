import { beforeAll, describe, expect, it } from 'vitest';
import type { RunConfigInput, RunEvent } from '@/lib/protocol';
import { runToEnd } from '@/lib/testing/run-to-end';
import { compareRuns } from './compare-runs';
import { noDivergenceNote } from './no-divergence-note';

/** Real runs on the virtual clock: one that goes its length, and a 529 on request 3 with retry on and off. */
const overload: RunConfigInput['faults'] = {
  rules: [
    {
      id: 'o',
      enabled: true,
      when: { kind: 'requests', numbers: [3] },
      action: { type: 'http_error', status: 529 },
    },
  ],
  tools: [],
};
let plain: RunEvent[];
let retryOn: RunEvent[];
let retryOff: RunEvent[];
beforeAll(async () => {
  plain = await runToEnd({ seed: 7 });
  retryOn = await runToEnd({ seed: 7, faults: overload });
  retryOff = await runToEnd({ seed: 7, faults: overload, recovery: { retry: { enabled: false } } });
}, 60_000);

/** The log up to (not including) the first event of turn n. */
function beforeTurn(log: RunEvent[], n: number): RunEvent[] {
  return log.slice(
    0,
    log.findIndex((e) => 'iteration' in e && e.iteration === n),
  );
}

/** The log up to and including the first event of turn n: turn n has started. */
function intoTurn(log: RunEvent[], n: number): RunEvent[] {
  return log.slice(0, log.findIndex((e) => 'iteration' in e && e.iteration === n) + 1);
}

function note(a: RunEvent[], b: RunEvent[]): string {
  const c = compareRuns({ id: 'a', events: a }, { id: 'b', events: b });
  expect(c.divergence).toBeNull();
  return noDivergenceNote(c);
}

const turnsOf = (log: RunEvent[]) =>
  new Set(log.flatMap((e) => ('iteration' in e && typeof e.iteration === 'number' ? [e.iteration] : [])))
    .size;

describe('what "no divergence" covers, in numbers', () => {
  it('both live: the turns both have done, and the turn each is on', () => {
    expect(turnsOf(plain)).toBeGreaterThanOrEqual(4);
    expect(note(intoTurn(plain, 4), intoTurn(plain, 4))).toBe(
      'No divergence in the 3 turns both have done; both are still running (turn 4 in progress).',
    );
    expect(note(intoTurn(plain, 2), intoTurn(plain, 4))).toBe(
      'No divergence in the 1 turn both have done; A is still running (turn 2 in progress); B is still running (turn 4 in progress).',
    );
    expect(note(plain.slice(0, 1), intoTurn(plain, 1))).toBe(
      'No divergence so far (no turn done by both yet); A has not started a turn yet; B is still running (turn 1 in progress).',
    );
  });

  it("one live: the ended side's turns, and where the live one has got", () => {
    const n = turnsOf(plain);
    expect(note(plain, intoTurn(plain, 3))).toBe(
      `No divergence in the 2 turns both have done; A ended after ${n} turns; B is still running (turn 3 in progress).`,
    );
    // A turn is under way until the next one starts: the last event before turn 3 leaves turn 2 in progress.
    expect(note(beforeTurn(plain, 3), plain)).toBe(
      `No divergence in the 1 turn both have done; A is still running (turn 2 in progress); B ended after ${n} turns.`,
    );
  });

  it('both ended alike: how many turns they matched in', () => {
    expect(note(plain, plain)).toBe(
      `No divergence: both runs did the same things in their ${turnsOf(plain)} turns, step for step (times aside).`,
    );
  });

  it('one ended shorter, the other not yet past where it ended: not a divergence yet, and the sentence says so', () => {
    // Retry off ends at the 529 in turn 3; retry on is still before that request's answer.
    const upTo = retryOn.findIndex((e) => e.event === 'model_error');
    expect(upTo).toBeGreaterThan(0);
    const live = retryOn.slice(0, upTo);
    const c = compareRuns({ id: 'off', events: retryOff }, { id: 'on', events: live });
    if (c.divergence) throw new Error(`diverged already: ${c.divergence.description}`);
    const off = turnsOf(retryOff);
    const on = c.turns.filter((t) => t.b).at(-1)!.turn;
    expect(off).toBeLessThan(turnsOf(retryOn));
    expect(noDivergenceNote(c)).toBe(
      `No divergence in the ${on - 1} turn${on - 1 === 1 ? '' : 's'} both have done; A ended after ${off} turns; B is still running (turn ${on} in progress).`,
    );
    // Once the live side takes a step the ended one never took, it is a divergence, not this note.
    expect(
      compareRuns({ id: 'off', events: retryOff }, { id: 'on', events: retryOn }).divergence,
    ).not.toBeNull();
  });
});
