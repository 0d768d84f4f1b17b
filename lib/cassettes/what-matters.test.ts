import { describe, expect, it } from 'vitest';
import { describeDifference, matchesUnderRedaction } from './what-matters';

describe('matchesUnderRedaction', () => {
  it('each [redacted] stands for some non-empty text; everything else must be as recorded', () => {
    expect(matchesUnderRedaction('start from project-overview notes', 'start from [redacted] notes')).toBe(true);
    expect(matchesUnderRedaction('a claude-sim-sonnet b claude-sim-sonnet', 'a [redacted] b [redacted]')).toBe(true);
    expect(matchesUnderRedaction('ab-cd-ef', '[redacted][redacted]')).toBe(true);
    expect(matchesUnderRedaction('start from project-overview list', 'start from [redacted] notes')).toBe(false);
    expect(matchesUnderRedaction('start from  notes', 'start from [redacted] notes')).toBe(false);
    expect(matchesUnderRedaction('x', '[redacted][redacted]')).toBe(false);
    expect(matchesUnderRedaction('same', 'same')).toBe(true);
    expect(matchesUnderRedaction('same', 'other')).toBe(false);
  });

  it('a difference is named only where the recording kept the text', () => {
    const body = (model: string, text: string) => JSON.stringify({ model, messages: [{ role: 'user', content: text }] });
    expect(describeDifference(body('claude-sim-sonnet', 'hi'), body('[redacted]', 'hi'))).toBe('nothing that matters differs');
    expect(describeDifference(body('claude-sim-sonnet', 'hi'), body('[redacted]', 'ho'))).toBe('messages: 1 sent, 1 recorded; first difference at message 1 (user)');
  });
});
