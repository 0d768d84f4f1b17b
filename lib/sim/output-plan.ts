import type { Random } from '@/lib/clock';
import { countTokens } from '@/lib/tokens/count-tokens';
import type { PolicyTurn } from './types';

/** One streamed delta and what it costs. */
export interface OutputChunk {
  text: string;
  tokens: number;
}

export type OutputBlock =
  | { kind: 'thinking'; text: string; chunks: OutputChunk[] }
  | { kind: 'text'; text: string; chunks: OutputChunk[] }
  | { kind: 'tool_call'; name: string; text: string; chunks: OutputChunk[] };

/** A turn as it will actually be emitted: cut at the output cap, split into paced deltas. */
export interface OutputPlan {
  blocks: OutputBlock[];
  outputTokens: number;
  /** The cap cut the turn short (text or tool JSON may end mid-value). */
  cut: boolean;
}

/** What a turn says on the wire: a refusal is its only text (each vendor marks it its own way). */
export function spokenTurn(turn: PolicyTurn): PolicyTurn {
  return turn.refusal === undefined ? turn : { thinking: turn.thinking, text: turn.refusal, toolCalls: [] };
}

/** Word-sized pieces (leading space attached, like BPE) whose concatenation is the text. */
function pieces(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? [];
}

/** The longest prefix of `piece` that fits in `budget` tokens. */
function fittingPrefix(piece: string, budget: number): string {
  const chars = Array.from(piece);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(chars.slice(0, mid).join('')) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('');
}

/**
 * Splits a turn into deltas of a few tokens each and cuts it at `cap` output tokens. Token
 * counts come from countTokens over each delta, so usage equals what was streamed.
 */
export function planOutput(options: { turn: PolicyTurn; cap: number; random: Random }): OutputPlan {
  const { turn, random } = options;
  let budget = Math.max(0, options.cap);
  let cut = false;
  const blocks: OutputBlock[] = [];

  const chunkText = (text: string): { chunks: OutputChunk[]; emitted: string } => {
    const chunks: OutputChunk[] = [];
    let current: OutputChunk = { text: '', tokens: 0 };
    let target = random.int(1, 4);
    let emitted = '';
    for (const piece of pieces(text)) {
      if (cut) break;
      let part = piece;
      let cost = countTokens(part);
      if (cost > budget) {
        part = fittingPrefix(piece, budget);
        cost = countTokens(part);
        cut = true;
      }
      if (part.length === 0) break;
      budget -= cost;
      emitted += part;
      current.text += part;
      current.tokens += cost;
      if (current.tokens >= target) {
        chunks.push(current);
        current = { text: '', tokens: 0 };
        target = random.int(1, 4);
      }
    }
    if (current.text.length > 0) chunks.push(current);
    return { chunks, emitted };
  };

  if (turn.thinking) {
    const { chunks, emitted } = chunkText(turn.thinking);
    if (chunks.length > 0) blocks.push({ kind: 'thinking', text: emitted, chunks });
  }
  if (turn.text && !cut) {
    const { chunks, emitted } = chunkText(turn.text);
    if (chunks.length > 0) blocks.push({ kind: 'text', text: emitted, chunks });
  }
  for (const call of turn.toolCalls) {
    if (cut) break;
    const nameCost = countTokens(call.name);
    if (nameCost > budget) {
      cut = true;
      break;
    }
    budget -= nameCost;
    const { chunks, emitted } = chunkText(call.argsText);
    blocks.push({
      kind: 'tool_call',
      name: call.name,
      text: emitted,
      chunks: [{ text: '', tokens: nameCost }, ...chunks],
    });
  }
  const outputTokens = Math.max(0, options.cap) - budget;
  return { blocks, outputTokens, cut };
}
