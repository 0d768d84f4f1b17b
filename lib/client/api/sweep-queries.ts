'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CreateSweepRequestInput } from '@/lib/protocol';
import { parseResponse, SweepFrameSchema } from '@/lib/protocol/http';
import { useEventStream } from './event-stream';
import { sweepEventsUrl, sweepsApi, type SweepFrame } from './sweeps';

export function useSweeps() {
  return useQuery({
    queryKey: ['sweeps'],
    queryFn: sweepsApi.list,
    refetchInterval: (query) =>
      query.state.data?.some((s) => s.status === 'running' || s.status === 'queued') ? 2_000 : 15_000,
  });
}

/** The sweep and its table; refetched while it runs or waits so the table fills in as runs finish. */
export function useSweep(id: string, running: boolean) {
  return useQuery({
    queryKey: ['sweep', id],
    queryFn: () => sweepsApi.get(id),
    refetchInterval: running ? 2_000 : false,
    retry: 1,
  });
}

export function useSweepRuns(id: string, running: boolean) {
  return useQuery({
    queryKey: ['sweep-runs', id],
    queryFn: () => sweepsApi.runs(id),
    refetchInterval: running ? 3_000 : false,
  });
}

export function useCreateSweep() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (grid: CreateSweepRequestInput) => sweepsApi.create(grid),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['sweeps'] }),
  });
}

export function useCancelSweep() {
  return useMutation({ mutationFn: (id: string) => sweepsApi.cancel(id) });
}

/**
 * The sweep's live progress over SSE. The server sends the current state first, so a reload
 * (or a second tab) reattaches where the sweep is (a dropped stream reconnects on its own and
 * starts again from the current state); when it ends the table is fetched again.
 */
export function useSweepProgress(id: string): SweepFrame | undefined {
  const [frame, setFrame] = useState<SweepFrame>();
  const client = useQueryClient();
  useEventStream(sweepEventsUrl(id), {
    onMessage: (value, stream) => {
      // A frame in another shape throws here, naming the endpoint and the field.
      const next = parseResponse(SweepFrameSchema, value, 'GET /api/sweeps/{id}/events');
      setFrame(next);
      if (next.status !== 'running' && next.status !== 'queued') {
        stream.close();
        void client.invalidateQueries({ queryKey: ['sweep', id] });
        void client.invalidateQueries({ queryKey: ['sweep-runs', id] });
        void client.invalidateQueries({ queryKey: ['sweeps'] });
      }
    },
  });
  return frame;
}
