import { describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import type { Message } from '@/lib/protocol';
import type { ModelRequest } from './model-request';
import { renderAnthropic } from './render-anthropic';

const SIG = 'EqQBsim-signature';
const credential = { vendor: 'sim-anthropic', model: 'claude-sim-sonnet', signature: SIG };

function request(messages: readonly Message[]): ModelRequest {
  return {
    model: 'claude-sim-sonnet',
    system: 'Be careful.',
    messages: [...messages],
    tools: [],
    maxTokens: 8192,
    thinking: true,
  };
}

/** A rendering that can reuse nothing: every message is a new object. */
function fresh(messages: readonly Message[]): ReturnType<typeof renderAnthropic> {
  return renderAnthropic({ request: request(structuredClone(messages)), vendor: 'sim-anthropic' });
}

/** One random message of the kinds an agent loop and the context channel produce. */
function randomMessage(next: () => number, n: number): Message {
  const call = `toolu_${n}`;
  switch (Math.floor(next() * 6)) {
    case 0:
      return {
        role: 'assistant',
        parts: [
          { type: 'thinking', text: `think ${n}`, credential },
          { type: 'tool_call', id: call, name: 'read_file', argsText: '{"path":"a"}', args: { path: 'a' } },
        ],
      };
    case 1:
      return { role: 'assistant', parts: [{ type: 'text', text: `answer ${n}` }] };
    case 2:
      return {
        role: 'user',
        parts: [{ type: 'tool_result', callId: call, content: `result ${n}`, isError: false }],
      };
    case 3:
      return {
        role: 'user',
        parts: [
          { type: 'text', text: `note ${n}` },
          { type: 'tool_result', callId: call, content: 'late', isError: false },
        ],
      };
    case 4:
      // Renders nothing: the API rejects empty text blocks.
      return { role: n % 2 ? 'user' : 'assistant', parts: [{ type: 'text', text: '' }] };
    default:
      return { role: 'user', parts: [{ type: 'text', text: `nudge ${n}` }] };
  }
}

describe('renderAnthropic over requests that share history', () => {
  it('renders every request exactly as a rendering from scratch, and never changes one it handed out', () => {
    const random = createRandom(11);
    const next = (): number => random.next();
    for (let trial = 0; trial < 40; trial++) {
      let messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: `task ${trial}` }] }];
      const handedOut: { params: unknown; json: string }[] = [];
      for (let step = 0; step < 30; step++) {
        const roll = next();
        if (roll < 0.6) {
          // The loop appends one or two messages.
          messages = [...messages, randomMessage(next, step)];
          if (next() < 0.5) messages.push(randomMessage(next, step + 100));
        } else if (roll < 0.8 && messages.length > 2) {
          // The context channel sends a copy of one message in its place (a stub).
          const at = 1 + Math.floor(next() * (messages.length - 1));
          messages = messages.map((m, i) =>
            i === at
              ? {
                  ...m,
                  parts: m.parts.map((p) => (p.type === 'tool_result' ? { ...p, content: '[stub]' } : p)),
                }
              : m,
          );
        } else if (roll < 0.9 && messages.length > 3) {
          // History cut after the task: the request goes on without some older messages.
          messages = [messages[0]!, ...messages.slice(2 + Math.floor(next() * (messages.length - 2)))];
        } else {
          // The same request again (a retry).
          messages = [...messages];
        }
        const rendered = renderAnthropic({ request: request(messages), vendor: 'sim-anthropic' });
        const expected = fresh(messages);
        expect(rendered.params).toEqual(expected.params);
        expect(rendered.report).toEqual(expected.report);
        handedOut.push({ params: rendered.params, json: JSON.stringify(rendered.params) });
      }
      for (const { params, json } of handedOut) expect(JSON.stringify(params)).toBe(json);
    }
  });

  it('reuses the joined messages of the shared history: the same objects, not copies', () => {
    const task: Message = { role: 'user', parts: [{ type: 'text', text: 'Read a.' }] };
    const turn: Message = {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: 'toolu_1', name: 'read_file', argsText: '{}', args: {} }],
    };
    const result: Message = {
      role: 'user',
      parts: [{ type: 'tool_result', callId: 'toolu_1', content: 'a', isError: false }],
    };
    const answer: Message = { role: 'assistant', parts: [{ type: 'text', text: 'Done.' }] };
    const nudge: Message = { role: 'user', parts: [{ type: 'text', text: 'Sure?' }] };
    const before = renderAnthropic({ request: request([task, turn, result]), vendor: 'sim-anthropic' }).params
      .messages;
    const after = renderAnthropic({
      request: request([task, turn, result, answer, nudge]),
      vendor: 'sim-anthropic',
    }).params.messages;
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(after).toHaveLength(5);
  });
});
