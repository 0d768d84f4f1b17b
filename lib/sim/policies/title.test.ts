import { describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import { listScenarios } from '@/lib/tools/scenarios';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import type { Policy, PolicyRequest } from '../types';
import { withTitles } from './title';

const titleRequest = (task: string, outcome: string): PolicyRequest => ({
  model: 'sim',
  system: 'Write a title for the agent run below: at most six words, no quotes, no trailing period.',
  messages: [{ role: 'user', parts: [{ type: 'text', text: `Task: ${task}\n\nOutcome: ${outcome}` }] }],
  tools: [],
  maxTokens: 64,
  thinking: false,
});
const never: Policy = () => {
  throw new Error('a title request must not reach the work policy');
};
const random = createRandom(1);

describe('the simulated title call', () => {
  it('titles every scenario by the task asked, the same whatever the outcome says', () => {
    for (const scenario of listScenarios()) {
      const titled = withTitles({ policy: never, scenario });
      const done = titled(titleRequest(scenario.task, scenario.hints.summary), random);
      const failed = titled(
        titleRequest(scenario.task, 'I could not edit the file; the check still fails.'),
        random,
      );
      expect(done.text, scenario.id).toBe(scenario.title);
      expect(failed.text, scenario.id).toBe(scenario.title);
    }
  });

  it('does not claim the fix on a run whose task verdict is not done', async () => {
    // Every edit throws: the loop ends on the model's answer, but the bug is still there.
    const events = await runToEnd({
      faults: { rules: [], tools: [{ id: 'no-edit', tool: 'edit_file', kind: 'throw' }] },
    });
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    expect(ofType(events, 'task_verdict')[0]?.verdict).toBe('not_done');
    const title = ofType(events, 'run_title')[0]?.title;
    expect(title).toBe('Fix a failing test');
    expect(title).not.toMatch(/global flag|fixed|gets/i);
  });
});
