import { describe, expect, it } from 'vitest';
import type { EventOf, RunEvent, RunConfigInput } from '@/lib/protocol';
import { isSimulated, vendorDefaults, vendorIds, type Vendor } from '@/lib/protocol/vendors';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { reduceRunEvent } from '@/lib/run-view/reduce-run-event';
import { explainEvent, type ExplainedEvent, type Explanation } from '@/lib/run-view/explain/explain-event';
import { explainTakeover, explainTakeoverOutcome } from '@/lib/run-view/explain/explain-swap-step';
import { madeOutcome } from './swap-outcome';
import { findContradictions, sentenceContradictions } from '@/lib/run-view/explain/why-claims';

/**
 * The takeover panel's sentences — the why lines of the swap, its first request's report and
 * that request's answer, and the status line under "Swap to…" — held to the run's own log, for
 * a handled and a naive swap on every pair of simulated vendors (and a model switch within
 * each), run through the real strict simulated vendors.
 */

const SIMULATED = vendorIds().filter(isSimulated);
/** Each simulated vendor's second model: a switch within the vendor is a takeover too. */
const OTHER_MODEL: Partial<Record<Vendor, string>> = {
  'sim-anthropic': 'claude-sim-haiku',
  'sim-openai': 'gpt-sim-mini',
  'sim-deepseek': 'deepseek-sim-chat',
  'sim-openai-responses': 'gpt-sim-5-mini',
};

const PAIRS: { from: Vendor; to: Vendor; model: string }[] = SIMULATED.flatMap((from) =>
  SIMULATED.map((to) => ({ from, to, model: to === from ? OTHER_MODEL[to]! : vendorDefaults(to).model })),
);

const SWAP_AT = 3;

function swapRun(pair: (typeof PAIRS)[number], naive: boolean): Promise<RunEvent[]> {
  const config: Omit<RunConfigInput, 'provider'> & { provider: RunConfigInput['provider'] } = {
    provider: { vendor: pair.from, thinking: true },
    takeover: { naive },
    swaps: [{ atTurn: SWAP_AT, vendor: pair.to, model: pair.model }],
    // The claims are about the swap's first request: a turn after it is enough.
    budgets: { maxIterations: SWAP_AT + 1 },
  } as Omit<RunConfigInput, 'provider'> & { provider: RunConfigInput['provider'] };
  return runToEnd(config);
}

/** The status line under "Swap to…" for this run's swap, as the page folds the log. */
function statusLine(events: readonly RunEvent[]): string {
  let view = initialRunViewState();
  for (const e of events) view = reduceRunEvent(view, e);
  const swap = view.swaps.at(-1)!;
  return madeOutcome(swap, view.terminate).text;
}

/** The lines the takeover panel showed before its sentences were written from the swap's own events. */
function inferredExplain(e: ExplainedEvent): Explanation | undefined {
  if (e.event === 'takeover_report') {
    const dropped =
      e.dropped.length === 0 ? 'nothing had to be dropped' : `${e.dropped.length} items dropped`;
    const naive = e.naive ?? (e.handling.naive ? { accepted: false, status: 400 } : undefined);
    const would = naive
      ? naive.accepted
        ? ' Sent naively, the vendor would also have accepted it.'
        : ` Sent naively it would have been refused with ${naive.status}.`
      : '';
    return { why: `First request to ${e.vendor}/${e.model}: ${dropped}.${would}`, term: 'signature' };
  }
  return explainEvent(e);
}

describe('the takeover panel’s sentences on every vendor pair, handled and naive', () => {
  for (const pair of PAIRS) {
    const name = `${pair.from} → ${pair.to}/${pair.model}`;
    it(`${name}: handled and naive, every sentence borne out by the log`, async () => {
      for (const naive of [false, true]) {
        const events = await swapRun(pair, naive);
        const [swap] = ofType(events, 'swap');
        const [report] = ofType(events, 'takeover_report');
        const [outcome] = ofType(events, 'takeover_outcome');
        expect(swap, `${name} swapped`).toMatchObject({
          iteration: SWAP_AT,
          to_vendor: pair.to,
          to_model: pair.model,
          handling: { naive },
        });
        expect(report, `${name} reported`).toBeDefined();
        expect(outcome, `${name} answered`).toMatchObject({
          vendor: pair.to,
          model: pair.model,
          handling: { naive },
        });

        // The engine's record of that first request says what the outcome says.
        const answer = events.find(
          (e): e is EventOf<'llm_call'> | EventOf<'model_error'> =>
            e.seq > outcome!.seq && ((e.event === 'llm_call' && !e.background) || e.event === 'model_error'),
        );
        if (outcome!.outcome === 'accepted') expect(answer?.event).toBe('llm_call');
        else
          expect(answer).toMatchObject({
            event: 'model_error',
            status: outcome!.status,
            message: outcome!.message,
          });

        // A naive report is no counterfactual: the request it describes was sent, and its answer is the outcome.
        if (naive) expect(report!.naive).toBeUndefined();
        const lines = [explainTakeover(report!).why, explainTakeoverOutcome(outcome!).why];
        if (naive) {
          expect(lines[0]).toContain('the history went as it was');
          expect(lines.join(' ')).not.toMatch(/would have been|dropped: nothing|foreign thinking dropped/);
        } else {
          expect(lines[0]).toContain(', handled:');
        }

        expect(findContradictions(events), `${name} (${naive ? 'naive' : 'handled'}) why lines`).toEqual([]);
        const status = statusLine(events);
        expect(status).toContain(
          outcome!.outcome === 'accepted'
            ? 'accepted its first request'
            : outcome!.outcome === 'refused'
              ? 'refused its first request'
              : 'no full answer',
        );
        expect(sentenceContradictions(status, swap!, events), `${name} status line`).toEqual([]);
      }
    });
  }

  it('the check catches the lines the panel showed before: a naive swap said to be a counterfactual', async () => {
    const events = await swapRun(
      { from: 'sim-anthropic', to: 'sim-openai-responses', model: 'gpt-sim-5' },
      true,
    );
    expect(ofType(events, 'takeover_outcome')[0]).toMatchObject({ outcome: 'refused', status: 400 });
    expect(findContradictions(events, inferredExplain).map((c) => c.claim)).toContain(
      'what a naive send would have met, but this swap sent the history naively: it was no counterfactual',
    );
  });

  it('the check catches a status line that calls a refused first request accepted', async () => {
    const events = await swapRun(
      { from: 'sim-anthropic', to: 'sim-openai-responses', model: 'gpt-sim-5' },
      true,
    );
    const [swap] = ofType(events, 'swap');
    expect(
      sentenceContradictions(
        'Swapped to sim-openai-responses/gpt-sim-5 from turn 3: sim-openai-responses accepted its first request.',
        swap!,
        events,
      ),
    ).toEqual([
      expect.objectContaining({
        claim: 'the first request after the swap was accepted, but it ended in an error (400)',
      }),
    ]);
  });
});
