'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportCassetteBody } from '@/lib/protocol/http';
import { apiRequest, jsonPost } from './client';

/** GET / POST /api/cassettes and POST /api/runs/{id}/cassette, parsed at the edge with the routes' own shapes. */
export const cassettesApi = {
  list: () => apiRequest((h) => h.CassetteListSchema, '/api/cassettes'),
  import: (body: ImportCassetteBody) =>
    apiRequest((h) => h.CassetteSummarySchema, '/api/cassettes', jsonPost(body)),
  saveRun: (runId: string) =>
    apiRequest(
      (h) => h.CassetteSummarySchema,
      `/api/runs/${encodeURIComponent(runId)}/cassette`,
      jsonPost({}),
    ),
};

/** Where a cassette downloads from. */
export function cassetteUrl(id: string): string {
  return `/api/cassettes/${encodeURIComponent(id)}`;
}

/** The cassettes' query: the playground's page sends its first answer with the HTML (seed-lists.ts). */
export const cassettesQuery = { queryKey: ['cassettes'], queryFn: cassettesApi.list, staleTime: 10_000 };

export function useCassettes() {
  return useQuery(cassettesQuery);
}

export function useImportCassette() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cassettesApi.import,
    onSuccess: () => void client.invalidateQueries({ queryKey: ['cassettes'] }),
  });
}

export function useSaveRunCassette() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cassettesApi.saveRun,
    onSuccess: () => void client.invalidateQueries({ queryKey: ['cassettes'] }),
  });
}
