import { describe, expect, it } from 'vitest';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';

/** A stream fault whose point never comes must say so, not leave the run looking unaffected. */
describe('a fault that cannot apply', () => {
  it('"drop mid-text" on a response with no text is reported as not applied', async () => {
    const events = await runToEnd({
      faults: {
        rules: [
          {
            id: 'd',
            enabled: true,
            when: { kind: 'requests', numbers: [1] },
            action: { type: 'drop', during: 'text' },
          },
        ],
        tools: [],
      },
    });
    const firstTurnText = ofType(events, 'content_delta').filter(
      (d) => d.iteration === 1 && d.kind === 'text',
    );
    expect(firstTurnText).toHaveLength(0);
    expect(ofType(events, 'fault_injected')).toHaveLength(1);
    const notes = ofType(events, 'log').filter((l) => /could not apply/.test(l.message));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ level: 'warn', iteration: 1 });
    expect(ofType(events, 'model_error')).toHaveLength(0);
  });

  it('a fault that strikes says nothing of the kind', async () => {
    const events = await runToEnd({
      faults: {
        rules: [
          {
            id: 'd',
            enabled: true,
            when: { kind: 'requests', numbers: [1] },
            action: { type: 'drop', during: 'tool_args' },
          },
        ],
        tools: [],
      },
    });
    expect(ofType(events, 'log').filter((l) => /could not apply/.test(l.message))).toHaveLength(0);
    expect(ofType(events, 'model_error').length).toBeGreaterThan(0);
  });
});
