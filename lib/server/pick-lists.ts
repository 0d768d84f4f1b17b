import 'server-only';
import type { z } from 'zod';
import type { CassetteListSchema, PromptSetListSchema, ScenarioListSchema } from '@/lib/protocol/http';
import { getPromptSetStore, promptSetKey } from '@/lib/store';
import { createToolbox, listScenarios } from '@/lib/tools';
import { listAllCassettes } from './cassette-library';
import { HttpError } from './http-error';
import { ownRows, requestVisitor } from './room-ownership';

export type ScenarioList = z.output<typeof ScenarioListSchema>;
export type CassetteList = z.output<typeof CassetteListSchema>;
export type PromptSetList = z.output<typeof PromptSetListSchema>;

/**
 * The scenarios a run can use (GET /api/scenarios): id, title, summary, task, and the tools'
 * names and descriptions the model is shown (no files, no check code).
 */
export function scenarioList(): ScenarioList {
  return listScenarios().map((scenario) => {
    const { id, title, summary, task } = scenario;
    const tools = createToolbox({ scenario })
      .specs()
      .map(({ name, description }) => ({ name, description }));
    return { id, title, summary, task, tools };
  });
}

/** Every cassette the visitor can replay (GET /api/cassettes): the shipped ones, then their saved and imported ones. */
export async function cassetteList(visitor: string | null): Promise<CassetteList> {
  const all = await listAllCassettes();
  const own = await ownRows(
    visitor,
    'cassette',
    all.filter((c) => !c.shipped),
    (c) => c.id,
  );
  return { cassettes: [...all.filter((c) => c.shipped), ...own] };
}

/** Every version of the visitor's prompt sets, newest first (GET /api/prompt-sets). */
export async function promptSetList(visitor: string | null): Promise<PromptSetList> {
  return ownRows(visitor, 'prompt_set', await getPromptSetStore().listPromptSets(), (set) =>
    promptSetKey(set.name, set.version),
  );
}

/**
 * The three lists the playground's pickers show, read by its page on the server and sent with
 * the HTML, so the page asks for none of them (nor loads the response schemas) when it mounts.
 * `at` is when they were read (the client's cache counts their age from it). In room mode a
 * request without a session gets none of them: the page then asks, and the 401 sends it to /room.
 */
export interface PickLists {
  at: number;
  scenarios: ScenarioList;
  cassettes: CassetteList;
  promptSets: PromptSetList;
}

export async function pickLists(request: Request): Promise<PickLists | undefined> {
  let visitor: string | null;
  try {
    visitor = await requestVisitor(request);
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return undefined;
    throw error;
  }
  return {
    at: Date.now(),
    scenarios: scenarioList(),
    cassettes: await cassetteList(visitor),
    promptSets: await promptSetList(visitor),
  };
}
