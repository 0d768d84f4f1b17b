import type { EventOf, TakeoverHandling, TakeoverRule } from '@/lib/protocol';
import { checkNever } from '@/lib/protocol/check-never';
import type { Explanation } from './explanation';

const SWAP_CAUSE: Record<EventOf<'swap'>['cause'], string> = {
  control: 'on request',
  scheduled: 'as scheduled in the config',
  fallback: 'as cross-vendor fallback',
  fork: 'as the target this fork was started on',
};

/** The "why" of a vendor/model swap: its cause, the dialect and handover from then on, and whether a re-run makes it again. */
export function explainSwap(e: EventOf<'swap'>): Explanation {
  const cause = SWAP_CAUSE[e.cause];
  const reason = e.reason ? ` (${e.reason})` : '';
  const replay = e.recorded_as
    ? ` Recorded in the run's config as a swap at turn ${e.recorded_as.atTurn}: a re-run swaps here too.`
    : e.not_recorded
      ? ` Not recorded in the run's config: ${e.not_recorded}.`
      : '';
  return {
    why: `${e.from_vendor}/${e.from_model} → ${e.to_vendor}/${e.to_model} ${cause}${reason}; from turn ${e.iteration} the history is rendered for ${e.dialect}, ${handover(e.handling)}.${replay}`,
    term: 'takeover',
    also: e.handling.naive ? ['naive-takeover'] : [],
  };
}

/** How the history is handed over, in words, from the handling the event carries. */
function handover(handling: TakeoverHandling): string {
  if (handling.naive) return 'naively: as it was, credentials included';
  const thinking =
    handling.foreignThinking === 'drop'
      ? 'foreign thinking dropped'
      : 'foreign thinking kept as a marked note';
  const off = handling.rulesOff ?? [];
  return `${thinking}${off.length > 0 ? `, with ${off.map((r) => RULE_WORDS[r]).join(', ')} switched off` : ''}`;
}

/**
 * The "why" of a takeover report: what the first request on the new vendor carried. Handled:
 * what was converted and dropped, and what the naive rendering would have met. Naive: that the
 * history went as it was, and what of it a handled takeover would have changed.
 */
export function explainTakeover(e: EventOf<'takeover_report'>): Explanation {
  const asIs = e.as_is ?? [];
  const dropped =
    e.dropped.length === 0
      ? 'nothing dropped'
      : `${count(e.dropped.length, 'item')} dropped (${[...new Set(e.dropped.map((d) => d.kind))].join(', ')})`;
  const sentAsIs = asIs.length > 0 ? `; sent as it was: ${asIs.join('; ')}` : '';
  if (e.handling.naive) {
    const went =
      asIs.length > 0
        ? `the history went as it was (naive takeover): ${asIs.join('; ')}`
        : 'the history went as it was (naive takeover), with nothing in it a safeguard would have changed';
    const still = e.dropped.length > 0 ? `; still ${dropped}: ${e.dialect} has no place for them` : '';
    return {
      why: `First request to ${e.vendor}/${e.model}: ${went}${still}.`,
      term: 'naive-takeover',
      also: ['takeover', 'signature'],
    };
  }
  const converted =
    e.converted.length === 0 ? 'nothing converted' : `${count(e.converted.length, 'kind')} of item converted`;
  const naive = e.naive
    ? e.naive.accepted
      ? ' Sent naively (history as it was), the vendor would also have accepted it.'
      : ` Sent naively (history as it was), it would have been refused${e.naive.status !== undefined ? ` with ${e.naive.status}` : ''}.`
    : '';
  return {
    why: `First request to ${e.vendor}/${e.model}, handled: ${converted}, ${dropped}${sentAsIs}.${naive}`,
    term: 'signature',
    also: ['takeover', 'naive-takeover'],
  };
}

/** The fields of a `takeover_outcome` its sentence is written from (the event, or the swap view that folded it). */
export type TakeoverOutcomeFacts = Pick<
  EventOf<'takeover_outcome'>,
  'vendor' | 'model' | 'handling' | 'outcome' | 'status' | 'vendor_type' | 'message'
>;

/** The "why" of a takeover's outcome: what the new vendor answered the first request after the swap. */
export function explainTakeoverOutcome(e: TakeoverOutcomeFacts): Explanation {
  const who = `${e.vendor}/${e.model}`;
  const sent = e.handling.naive
    ? 'the history sent as it was (naive takeover)'
    : 'the history as the takeover rendered it';
  const error = [e.status, e.vendor_type].filter((x) => x !== undefined).join(' ');
  const term = e.handling.naive ? 'naive-takeover' : 'takeover';
  switch (e.outcome) {
    case 'accepted':
      return {
        why: `${who} accepted the first request after the swap, ${sent}, and answered it to its stop reason.`,
        term,
      };
    case 'refused':
      return {
        why: `${who} refused the first request after the swap, ${sent}: ${error}: ${unstop(e.message ?? 'no message')}.`,
        term,
      };
    case 'failed':
      return {
        why: `The first request to ${who} after the swap, ${sent}, got no full answer: ${unstop(e.message ?? 'no message')}${error ? ` (${error})` : ''}.`,
        term,
      };
    default:
      return checkNever(e.outcome);
  }
}

/** A vendor's message without its closing full stop, to end a sentence of ours. */
function unstop(message: string): string {
  return message.replace(/\.\s*$/, '');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

const RULE_WORDS: Record<TakeoverRule, string> = {
  credentials: 'foreign credentials dropped',
  latest_turn: 'the latest-turn rule',
  reasoning_placeholder: 'the reasoning_content placeholder',
  handles: 'references re-sent by value',
};
