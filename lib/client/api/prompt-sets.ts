'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavePromptSetInput } from '@/lib/protocol';
import { apiRequest, jsonPost } from './client';

/** GET / POST /api/prompt-sets, parsed at the edge with the route's own shapes. */
export const promptSetsApi = {
  list: () => apiRequest((h) => h.PromptSetListSchema, '/api/prompt-sets'),
  save: (body: SavePromptSetInput) =>
    apiRequest((h) => h.PromptSetSchema, '/api/prompt-sets', jsonPost(body)),
};

/** The prompt sets' query: the playground's page sends its first answer with the HTML (seed-lists.ts). */
export const promptSetsQuery = { queryKey: ['prompt-sets'], queryFn: promptSetsApi.list, staleTime: 10_000 };

export function usePromptSets() {
  return useQuery(promptSetsQuery);
}

export function useSavePromptSet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: promptSetsApi.save,
    onSuccess: () => void client.invalidateQueries({ queryKey: ['prompt-sets'] }),
  });
}
