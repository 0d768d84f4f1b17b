'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ForkSpec, RunConfigInput } from '@/lib/protocol';
import { api, type ControlAction } from './client';
import { markRun, RUN_MARKS } from '../run-view/run-marks';
import { preopenRunStream } from './run-stream';

/** react-query bindings over the API client: lists are cached, mutations refresh them. */

/** The scenarios' query: the playground's page sends its first answer with the HTML (seed-lists.ts). */
export const scenariosQuery = { queryKey: ['scenarios'], queryFn: api.listScenarios, staleTime: 60_000 };

export function useScenarios() {
  return useQuery(scenariosQuery);
}

export function useRuns() {
  return useQuery({
    queryKey: ['runs'],
    queryFn: api.listRuns,
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'running') ? 2_000 : 10_000),
  });
}

export function useRunDetail(id: string) {
  return useQuery({ queryKey: ['run', id], queryFn: () => api.getRun(id), retry: 1 });
}

export function useCreateRun() {
  const client = useQueryClient();
  return useMutation({
    // The run's stream opens the moment its id is known, not after the view re-renders for it.
    mutationFn: async ({ config, apiKey }: { config: RunConfigInput; apiKey?: string }) => {
      const created = await api.createRun(config, apiKey);
      markRun(RUN_MARKS.created);
      preopenRunStream(created.id, created.events);
      return created;
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ['runs'] }),
  });
}

export function useControlRun() {
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: ControlAction }) => api.control(id, action),
  });
}

export function useImportRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (jsonl: string) => api.importTrace(jsonl),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['runs'] }),
  });
}

/** The runs forked from this one; asked again when `refreshKey` changes (e.g. the run ended). */
export function useForks(id: string, refreshKey?: unknown) {
  return useQuery({ queryKey: ['forks', id, refreshKey], queryFn: () => api.listForks(id), retry: 1 });
}

/** Suggested swap targets for a live run, asked again when `turn` moves on (the history grew). */
export function useSwapTargets(id: string | undefined, turn: number) {
  return useQuery({
    queryKey: ['swap-targets', id, turn],
    queryFn: () => api.swapTargets(id!),
    enabled: id !== undefined && turn > 1,
    retry: 0,
    staleTime: Infinity,
  });
}

export function useForkRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fork, apiKey }: { fork: ForkSpec; apiKey?: string }) => api.forkRun(fork, apiKey),
    onSuccess: (_created, { fork }) => {
      void client.invalidateQueries({ queryKey: ['runs'] });
      void client.invalidateQueries({ queryKey: ['forks', fork.runId] });
    },
  });
}
