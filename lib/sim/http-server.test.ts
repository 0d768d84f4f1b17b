import { describe, it, expect } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createRandom, VirtualClock } from '@/lib/clock';
import { createSimAnthropic } from './anthropic/sim-anthropic';
import { startSimServer } from './http-server';
import { createSimOpenAI } from './openai/sim-openai';
import { fixedPolicy } from './sim-fixtures.testkit';

describe('startSimServer', () => {
  it('serves the Anthropic sim over HTTP to the SDK on its default fetch', async () => {
    const fetch = createSimAnthropic({
      clock: new VirtualClock(),
      random: createRandom(1),
      policy: fixedPolicy({ text: 'Served over HTTP.', toolCalls: [] }),
    });
    const server = await startSimServer({ dialect: 'anthropic', fetch });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const client = new Anthropic({ apiKey: 'sim', baseURL: server.url, maxRetries: 0 });
      const message = await client.messages
        .stream({ model: 'claude-sim-haiku', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
        .finalMessage();
      expect(message.content).toMatchObject([{ type: 'text', text: 'Served over HTTP.' }]);
      const missing = await client.messages
        .create({ model: 'nope', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    } finally {
      await server.close();
    }
  });

  it('streams the OpenAI sim chunk by chunk, and a client abort ends it', async () => {
    const fetch = createSimOpenAI({
      clock: new VirtualClock(),
      random: createRandom(1),
      policy: fixedPolicy({ text: 'word '.repeat(300), toolCalls: [] }),
    });
    const server = await startSimServer({ dialect: 'openai', fetch });
    try {
      const client = new OpenAI({ apiKey: 'sim', baseURL: `${server.url}/v1`, maxRetries: 0 });
      const controller = new AbortController();
      const stream = await client.chat.completions.create(
        { model: 'gpt-sim-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] },
        { signal: controller.signal },
      );
      let chunks = 0;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) chunks++;
        if (chunks === 5) controller.abort();
      }
      expect(chunks).toBe(5);
      const full = await client.chat.completions.create({
        model: 'gpt-sim-4o',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(full.choices[0]!.message.content).toBe('word '.repeat(300));
    } finally {
      await server.close();
    }
  });
});
