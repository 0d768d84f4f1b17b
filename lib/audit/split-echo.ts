import type { Dialect } from '@/lib/protocol';

/** How long the second half of the key waits after the first: two deltas, never coalesced. */
export const SPLIT_GAP_MS = 300;

/**
 * The vendor that streams the key back in pieces: a 200 whose answer text quotes the key it
 * received split across two deltas SPLIT_GAP_MS apart (a redactor that looks at one delta at
 * a time sees neither half as a key), then the key hex-encoded, written backwards and split by
 * line breaks, in the dialect's own stream.
 */
export function splitEcho(dialect: Dialect, key: string): Response {
  const half = Math.floor(key.length / 2);
  const backwards = [...key].reverse().join('');
  const lines = key.match(/.{1,6}/g)!.join('\n');
  const pieces = [
    `Your key is ${key.slice(0, half)}`,
    `${key.slice(half)}; in hex ${Buffer.from(key).toString('hex')}; backwards ${backwards}; in lines ${lines}. Done.`,
  ];
  const encoder = new TextEncoder();
  const frames =
    dialect === 'anthropic'
      ? anthropicFrames(pieces)
      : dialect === 'responses'
        ? responsesFrames(pieces)
        : openaiFrames(pieces);
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(frames.head));
      await new Promise((resolve) => setTimeout(resolve, SPLIT_GAP_MS));
      controller.enqueue(encoder.encode(frames.tail));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

function anthropicFrames(pieces: string[]): { head: string; tail: string } {
  const frame = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const delta = (text: string) =>
    frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
  return {
    head:
      frame('message_start', {
        message: {
          id: 'msg_split_echo',
          type: 'message',
          role: 'assistant',
          model: 'claude-sim-sonnet',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      }) +
      frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
      delta(pieces[0]!),
    tail:
      delta(pieces[1]!) +
      frame('content_block_stop', { index: 0 }) +
      frame('message_delta', {
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 30 },
      }) +
      frame('message_stop', {}),
  };
}

function openaiFrames(pieces: string[]): { head: string; tail: string } {
  const chunk = (delta: object, finish: string | null, usage?: object) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-split-echo', object: 'chat.completion.chunk', created: 0, model: 'gpt-sim-4o', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  return {
    head: chunk({ role: 'assistant', content: pieces[0] }, null),
    tail:
      chunk({ content: pieces[1] }, null) +
      chunk({}, 'stop') +
      chunk({}, null, { prompt_tokens: 20, completion_tokens: 30, total_tokens: 50 }) +
      'data: [DONE]\n\n',
  };
}

function responsesFrames(pieces: string[]): { head: string; tail: string } {
  let seq = 0;
  const frame = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const response = (status: string, output: object[], usage: object | null) => ({
    id: 'resp_split_echo',
    object: 'response',
    created_at: 0,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-sim-5',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage,
  });
  const item = (text: string, status: string) => ({
    id: 'msg_split_echo',
    type: 'message',
    role: 'assistant',
    status,
    content: [{ type: 'output_text', text, annotations: [] }],
  });
  const delta = (text: string) =>
    frame('response.output_text.delta', {
      item_id: 'msg_split_echo',
      output_index: 0,
      content_index: 0,
      delta: text,
    });
  const whole = pieces.join('');
  return {
    head:
      frame('response.created', { response: response('in_progress', [], null) }) +
      frame('response.output_item.added', { output_index: 0, item: item('', 'in_progress') }) +
      frame('response.content_part.added', {
        item_id: 'msg_split_echo',
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      }) +
      delta(pieces[0]!),
    tail:
      delta(pieces[1]!) +
      frame('response.output_text.done', {
        item_id: 'msg_split_echo',
        output_index: 0,
        content_index: 0,
        text: whole,
      }) +
      frame('response.output_item.done', { output_index: 0, item: item(whole, 'completed') }) +
      frame('response.completed', {
        response: response('completed', [item(whole, 'completed')], {
          input_tokens: 20,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 30,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 50,
        }),
      }),
  };
}
