'use client';

import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CassetteListSchema, PromptSetListSchema, ScenarioListSchema } from '@/lib/protocol/http';
import { cassettesQuery } from './cassettes';
import { promptSetsQuery } from './prompt-sets';
import { scenariosQuery } from './runs';

/**
 * The lists the playground's pickers show, read by its page on the server (lib/server/pick-lists.ts)
 * and sent with the HTML; `at` is when the server read them.
 */
export interface SeedLists {
  at: number;
  scenarios: z.output<typeof ScenarioListSchema>;
  cassettes: z.output<typeof CassetteListSchema>;
  promptSets: z.output<typeof PromptSetListSchema>;
}

/**
 * Puts the lists the page came with in the query cache, each as its query's answer read at `at`:
 * the pickers' queries find them fresh and ask for nothing at mount, so the page loads neither
 * the response schemas nor zod until the visitor does something that needs a request. A list
 * older than its query's staleTime is asked again as usual. A list already cached is left alone.
 */
export function seedLists(client: QueryClient, lists: SeedLists): void {
  const seed = (queryKey: readonly unknown[], data: unknown) => {
    if (client.getQueryData(queryKey) === undefined)
      client.setQueryData(queryKey, data, { updatedAt: lists.at });
  };
  seed(scenariosQuery.queryKey, lists.scenarios);
  seed(cassettesQuery.queryKey, lists.cassettes);
  seed(promptSetsQuery.queryKey, lists.promptSets);
}
