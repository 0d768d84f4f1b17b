import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunConfigSchema, SavePromptSetBodySchema } from '@/lib/protocol';
import { checkPromptSetRef, type PromptSetStore } from './prompt-set-store';
import { createSqlitePromptSetStore } from './sqlite-prompt-set-store';
import { createSqliteRunStore } from './sqlite-run-store';

let dir: string;
let store: PromptSetStore;
let clock = 0;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-prompts-'));
  clock = Date.UTC(2026, 0, 1);
  store = createSqlitePromptSetStore({ dir, now: () => (clock += 1000) });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const save = (input: Parameters<typeof SavePromptSetBodySchema.parse>[0]) =>
  store.savePromptSet(SavePromptSetBodySchema.parse(input));

// Saving and listing versions is the prompt set store's contract, run on every backend
// (lib/store/contract/room-stores.testkit.ts); these are SQLite's file and the reference check.
describe('prompt sets in the store', () => {
  it('lives in the run store file, beside the runs (one migration for both)', async () => {
    await save({ name: 'terse', system: 'Be terse.' });
    const runs = createSqliteRunStore({ dir });
    await runs.close();
    await store.close();
    store = createSqlitePromptSetStore({ dir });
    expect(await store.listPromptSets()).toHaveLength(1);
  });

  it('a run may name a set only with that version’s exact texts', async () => {
    await save({ name: 'terse', system: 'Be terse.', toolDescriptions: { search: 'Find text.' } });
    const config = (extra: object) =>
      RunConfigSchema.parse({
        provider: { vendor: 'sim-anthropic' },
        promptSet: { name: 'terse', version: 1 },
        ...extra,
      });
    expect(
      await checkPromptSetRef({
        config: config({ system: 'Be terse.', toolDescriptions: { search: 'Find text.' } }),
        store,
      }),
    ).toEqual([]);
    expect(
      await checkPromptSetRef({
        config: config({ system: 'Be terse!', toolDescriptions: { search: 'Find text.' } }),
        store,
      }),
    ).toEqual([
      'promptSet: system differs from "terse" v1; save them as a new version, or leave promptSet out',
    ]);
    expect((await checkPromptSetRef({ config: config({ system: 'Be terse.' }), store }))[0]).toMatch(
      /toolDescriptions differs/,
    );
    expect(
      await checkPromptSetRef({ config: config({ promptSet: { name: 'terse', version: 9 } }), store }),
    ).toEqual(['promptSet: there is no saved prompt set "terse" version 9']);
  });
});
