import { describe, expect, it } from 'vitest';
import { GLOSSARY, lessonHref } from './glossary';
import { MECHANISM_LIST } from './mechanisms';

describe('glossary', () => {
  it('has one entry per anchor, each defined, and every "see also" points at an entry', () => {
    const ids = GLOSSARY.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of GLOSSARY) {
      expect(e.id).toMatch(/^[a-z0-9-]+$/);
      expect(e.definition.length).toBeGreaterThan(40);
      for (const s of 'see' in e ? e.see : []) expect(ids).toContain(s);
    }
  });

  it('defines the words the run view shows', () => {
    const terms = GLOSSARY.map((e) => e.term.toLowerCase()).join('\n');
    for (const word of ['silent retry', 'degrade', 'rung', 'backoff', 'retry-after', 'jitter', 'empty', 'partial', 'stream idle watchdog', 'keepalive', 'stream error cap', 'fallback model', 'background account', 'loop guard', 'failure budget', 'short-circuit', 'output truncation', 'old-result compaction', 'stub', 'micro-compact', 'proactive summary', 'overflow waterfall', 'hard trim', 'circuit breaker', 'half-open', 'output cap escalation', 'continuation', 'takeover', 'signature', 'foreign thinking', 'naive takeover', 'fork', 'task verdict', 'terminate reason']) {
      expect(terms).toContain(word);
    }
  });

  it('reaches every lesson: each switchable mechanism has a term that links to it', () => {
    const linked = new Set(GLOSSARY.map((e) => lessonHref(e)).filter(Boolean));
    for (const m of MECHANISM_LIST) expect(linked, m.id).toContain(`/lessons/${m.lessonSlug}`);
  });
});
