import type Anthropic from '@anthropic-ai/sdk';

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

/**
 * Puts Anthropic's `cache_control` breakpoints on a request's stable prefix, at most four:
 * the last tool (the tool list survives an edited system prompt), the system prompt, the
 * settled history (the last user message before the newest, what the previous request wrote)
 * and the newest message (written now, read by the next request). The vendor caches in the
 * order tools → system → messages, so each breakpoint caches everything before it. Rendered
 * messages are shared between requests: a marked message and block are copies.
 */
export function markCachePrefix(params: Anthropic.MessageCreateParamsStreaming): void {
  const tools = params.tools;
  if (tools && tools.length > 0) {
    const last = tools.length - 1;
    params.tools = tools.map((tool, i) => (i === last ? { ...tool, cache_control: EPHEMERAL } : tool));
  }
  if (typeof params.system === 'string')
    params.system = [{ type: 'text', text: params.system, cache_control: EPHEMERAL }];
  const messages = params.messages;
  const newest = messages.length - 1;
  let settled = -1;
  for (let i = newest - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      settled = i;
      break;
    }
  }
  if (newest < 0) return;
  params.messages = messages.map((message, i) =>
    i === newest || i === settled ? markMessage(message) : message,
  );
}

/** The message with a breakpoint on its last block that can carry one (never a thinking block). */
function markMessage(message: Anthropic.MessageParam): Anthropic.MessageParam {
  if (typeof message.content === 'string') {
    return message.content === ''
      ? message
      : { ...message, content: [{ type: 'text', text: message.content, cache_control: EPHEMERAL }] };
  }
  const content = message.content;
  for (let j = content.length - 1; j >= 0; j--) {
    const block = content[j]!;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    if (block.type === 'text' && block.text === '') continue;
    const marked = [...content];
    marked[j] = { ...block, cache_control: EPHEMERAL } as Anthropic.ContentBlockParam;
    return { ...message, content: marked } as Anthropic.MessageParam;
  }
  return message;
}
