import type { EventOf, TakeoverRule } from '@/lib/protocol';
import type { Explanation } from './explanation';

const SWAP_CAUSE: Record<EventOf<'swap'>['cause'], string> = {
  control: 'on request',
  scheduled: 'as scheduled in the config',
  fallback: 'as cross-vendor fallback',
  fork: 'as the target this fork was started on',
};

/** The "why" of a vendor/model swap: its cause, the dialect from then on, and whether a re-run makes it again. */
export function explainSwap(e: EventOf<'swap'>): Explanation {
  const cause = SWAP_CAUSE[e.cause];
  const reason = e.reason ? ` (${e.reason})` : '';
  const replay = e.recorded_as
    ? ` Recorded in the run's config as a swap at turn ${e.recorded_as.atTurn}: a re-run swaps here too.`
    : e.not_recorded
      ? ` Not recorded in the run's config: ${e.not_recorded}.`
      : '';
  return {
    why: `${e.from_vendor}/${e.from_model} → ${e.to_vendor}/${e.to_model} ${cause}${reason}; from turn ${e.iteration} the history is rendered for ${e.dialect}.${replay}`,
    term: 'takeover',
  };
}

/** The "why" of a takeover report: what the first request on the new vendor dropped and what a naive one would have met. */
export function explainTakeover(e: EventOf<'takeover_report'>): Explanation {
  const dropped =
    e.dropped.length === 0
      ? 'nothing had to be dropped'
      : `${e.dropped.length} item${e.dropped.length === 1 ? '' : 's'} dropped (${[...new Set(e.dropped.map((d) => d.kind))].join(', ')})`;
  const naive = e.naive
    ? e.naive.accepted
      ? ' Sent naively, the vendor would also have accepted it.'
      : ` Sent naively it would have been refused${e.naive.status !== undefined ? ` with ${e.naive.status}` : ''}.`
    : '';
  const rulesOff = e.handling.naive ? [] : (e.handling.rulesOff ?? []);
  const off = rulesOff.length > 0 ? ` Safeguard switched off for this run: ${rulesOff.map((r) => RULE_WORDS[r]).join(', ')}.` : '';
  return { why: `First request to ${e.vendor}/${e.model}: ${dropped}.${off}${naive}`, term: 'signature', also: ['takeover', 'naive-takeover'] };
}

const RULE_WORDS: Record<TakeoverRule, string> = {
  credentials: 'foreign credentials dropped',
  latest_turn: 'the latest-turn rule',
  reasoning_placeholder: 'the reasoning_content placeholder',
  handles: 'references re-sent by value',
};
