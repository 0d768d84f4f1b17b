import { describe, expect, it } from 'vitest';
import { turnOrigin } from './turn-row';

describe("where a turn ran, when the side's header does not say it", () => {
  it("names the vendor a takeover moved the turn to, and a fork's copied turns", () => {
    const header = 'sim-anthropic claude-sim-sonnet';
    expect(
      turnOrigin({ vendor: 'sim-anthropic', model: 'claude-sim-sonnet', copied: false }, header),
    ).toEqual([]);
    expect(turnOrigin({ vendor: 'sim-openai', model: 'gpt-sim-4o', copied: false }, header)).toEqual([
      'on sim-openai gpt-sim-4o',
    ]);
    expect(
      turnOrigin(
        { vendor: 'sim-anthropic', model: 'claude-sim-sonnet', copied: true },
        'sim-openai gpt-sim-4o',
      ),
    ).toEqual(['copied from the parent run', 'on sim-anthropic claude-sim-sonnet']);
    // A turn with no request yet says nothing it does not know.
    expect(turnOrigin({ vendor: null, model: null, copied: false }, header)).toEqual([]);
  });
});
