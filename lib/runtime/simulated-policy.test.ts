import { describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import type { SimulatedBehaviour } from '@/lib/engine/mechanism-port';
import { RunConfigSchema } from '@/lib/protocol';
import type { PolicyRequest } from '@/lib/sim';
import { fixFailingTest } from '@/lib/tools/scenarios/fix-failing-test';
import { simulatedPolicy } from './simulated-policy';

const config = RunConfigSchema.parse({ provider: { vendor: 'sim-openai' }, seed: 3 });
const request: PolicyRequest = {
  model: 'gpt-sim',
  system: 'You are an agent.',
  messages: [{ role: 'user', parts: [{ type: 'text', text: fixFailingTest.task }] }],
  tools: [{ name: 'read_file', description: 'reads a file', inputSchema: { type: 'object' } }],
  maxTokens: 1000,
  thinking: false,
};

describe("a module's simulated-model behaviour", () => {
  it('wraps the run’s policy: it answers itself, or hands the request on', () => {
    const seen: string[] = [];
    const behaviour: SimulatedBehaviour = (run) =>
      run.seed === 3
        ? (req, _random, next) => {
            seen.push(req.system);
            return req.messages.length === 1 ? { text: 'the layer answers', toolCalls: [] } : next();
          }
        : undefined;
    const policy = simulatedPolicy(config, fixFailingTest, undefined, [behaviour]);
    expect(policy(request, createRandom(1))).toEqual({ text: 'the layer answers', toolCalls: [] });
    const later: PolicyRequest = {
      ...request,
      messages: [...request.messages, { role: 'assistant', parts: [{ type: 'text', text: 'x' }] }],
    };
    expect(policy(later, createRandom(1))).toEqual(
      simulatedPolicy(config, fixFailingTest, undefined, [])(later, createRandom(1)),
    );
    expect(seen).toEqual(['You are an agent.', 'You are an agent.']);
  });

  it('a behaviour that has nothing for the run leaves the policy as it was', () => {
    const none: SimulatedBehaviour = () => undefined;
    const plain = simulatedPolicy(config, fixFailingTest, undefined, []);
    expect(simulatedPolicy(config, fixFailingTest, undefined, [none])(request, createRandom(1))).toEqual(
      plain(request, createRandom(1)),
    );
  });
});
