import { describe, expect, it } from 'vitest';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { dispatch } from '@/scripts/api/dispatch-route';

/** What POST /api/prompt-sets refuses that it used to store or silently drop. */
useTempDataDir('loop-lab-prompt-set-names-');

async function save(body: unknown): Promise<{ status: number; error: string; details: string[] }> {
  const response = await dispatch({
    method: 'POST',
    path: '/api/prompt-sets',
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const answer = (await response.json()) as { error?: string; details?: string[] };
  return { status: response.status, error: answer.error ?? '', details: answer.details ?? [] };
}

describe('a prompt set name', () => {
  it.each([
    ['a right-to-left override', 'terse\u202Etxt.exe', 'U+202E (RIGHT-TO-LEFT OVERRIDE)'],
    ['a NUL', 'terse\u0000prompt', 'U+0000 (NUL)'],
    ['a left-to-right isolate', '\u2066terse', 'U+2066 (LEFT-TO-RIGHT ISOLATE)'],
    ['an escape', 'terse\u001b[31m', 'U+001B (ESCAPE)'],
  ])('with %s is a 400 saying which character', async (_what, name, which) => {
    const { status, details } = await save({ name, system: 'Be brief.' });
    expect(status).toBe(400);
    expect(details).toEqual([expect.stringContaining(`name: contains ${which}`)]);
  });

  it('with letters of any script is saved', async () => {
    expect((await save({ name: 'نسخة قصيرة — terse', system: 'Be brief.' })).status).toBe(201);
  });
});

describe('toolDescriptions', () => {
  it('naming "__proto__" is a 400, not silently dropped', async () => {
    const { status, details } = await save(
      '{"name":"p","system":"x","toolDescriptions":{"__proto__":"pwned","read_file":"Reads a file."}}',
    );
    expect(status).toBe(400);
    expect(details).toEqual([expect.stringMatching(/^toolDescriptions\.__proto__: no such tool/)]);
  });
});
