'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PromptSetListSchema, PromptSetSchema, type PromptSet, type SavePromptSetInput } from '@/lib/protocol';
import { apiRequest, jsonPost } from './api-client';

/** GET / POST /api/prompt-sets, parsed at the edge with the route's own shapes. */
export const promptSetsApi = {
  list: async (): Promise<PromptSet[]> => PromptSetListSchema.parse(await apiRequest<unknown>('/api/prompt-sets')),
  save: async (body: SavePromptSetInput): Promise<PromptSet> => PromptSetSchema.parse(await apiRequest<unknown>('/api/prompt-sets', jsonPost(body))),
};

export function usePromptSets() {
  return useQuery({ queryKey: ['prompt-sets'], queryFn: promptSetsApi.list, staleTime: 10_000 });
}

export function useSavePromptSet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: promptSetsApi.save,
    onSuccess: () => void client.invalidateQueries({ queryKey: ['prompt-sets'] }),
  });
}
