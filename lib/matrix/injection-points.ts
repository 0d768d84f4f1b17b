import type { StreamPoint } from '@/lib/protocol';
import type { MatrixVendor } from './baseline';

/**
 * Where in a model request a fault strikes. `before_headers` is the only point outside the
 * stream; the rest are inside a streaming 200 and map onto the fault plan's stream points.
 */
export const INJECTION_POINTS = [
  'before_headers',
  'after_first_event',
  'mid_text',
  'mid_tool_args',
  'mid_thinking',
  'final_delta',
] as const;
export type InjectionPoint = (typeof INJECTION_POINTS)[number];

export interface PointInfo {
  label: string;
  /** How the fault plan places a stream fault here (undefined: before headers). */
  placement?: { afterEvents: number } | { during: StreamPoint };
  /** Content of this kind must stream in the targeted response for the point to exist there. */
  needs?: 'text' | 'tool_args' | 'thinking';
  /** Some of the model's output has arrived when a fault strikes here. */
  contentArrived: boolean;
}

export const POINTS: Record<InjectionPoint, PointInfo> = {
  before_headers: { label: 'before headers', contentArrived: false },
  after_first_event: { label: 'after the first event', placement: { afterEvents: 1 }, contentArrived: false },
  mid_text: { label: 'mid-text', placement: { during: 'text' }, needs: 'text', contentArrived: true },
  mid_tool_args: {
    label: 'mid-tool-arguments',
    placement: { during: 'tool_args' },
    needs: 'tool_args',
    contentArrived: true,
  },
  mid_thinking: {
    label: 'mid-thinking',
    placement: { during: 'thinking' },
    needs: 'thinking',
    contentArrived: true,
  },
  final_delta: { label: 'at the final delta', placement: { during: 'final' }, contentArrived: true },
};

/**
 * Whether a vendor's stream closes each tool call before its final delta: Anthropic sends
 * `content_block_stop` for every block before `message_delta`, the Responses API
 * `response.output_item.done` for every item before `response.completed`; OpenAI Chat closes
 * tool calls only with the chunk that carries `finish_reason`. A Partial cut at the final
 * delta keeps finished tool calls only where they were closed.
 */
export const CLOSES_TOOL_CALLS_BEFORE_FINAL: Record<MatrixVendor, boolean> = {
  'sim-anthropic': true,
  'sim-openai': false,
  'sim-openai-responses': true,
};
