import { describe, expect, it } from 'vitest';
import { summarizeTranscript, summaryCalls } from './summary';

describe('the simulated summarizer', () => {
  it('writes one line per call with the first line of its result, and carries an earlier summary over', () => {
    const transcript = [
      'Previous summary:',
      'Done so far:',
      '- list_files {} → ok: 3 files in the workspace:',
      '',
      'Conversation:',
      '[user] Fix the config.',
      '[assistant] Let me read it.',
      '[call read_file {"path":"config.json"}]',
      '[result read_file ok]',
      'config.json — lines 1–4 of 4',
      '{ "a": 1 }',
      '[call run_check {}]',
      '[result run_check ok]',
      'FAIL',
      '1 failing',
    ].join('\n');
    const summary = summarizeTranscript(transcript);
    expect(summary).toBe(
      [
        'Task: Fix the config.',
        'Done so far:',
        '- list_files {} → ok: 3 files in the workspace:',
        '- read_file {"path":"config.json"} → ok: config.json — lines 1–4 of 4',
        '- run_check {} → ok: FAIL',
        'Last note: Let me read it.',
      ].join('\n'),
    );
    // The worker reads its own summary back as calls already made (a failed check stays failed).
    expect(summaryCalls(summary).map((c) => [c.name, c.argsText, c.content])).toEqual([
      ['list_files', '{}', '3 files in the workspace:'],
      ['read_file', '{"path":"config.json"}', 'config.json — lines 1–4 of 4'],
      ['run_check', '{}', 'FAIL'],
    ]);
  });
});
