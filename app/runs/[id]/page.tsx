import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { preload } from 'react-dom';
import { RunPage } from '@/components/runs/run-page';
import type { FoldedRun } from '@/lib/client/run-view/run-store-provider';
import { getFinishedRunViews, HttpError, requestOwnsRun, type FinishedRunView } from '@/lib/server';
import { getStore } from '@/lib/store';

export default async function RunDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // An id no run has is a 404 with a way back, not a run page with its actions around an empty log.
  if (!(await getStore().getRun(id))) notFound();
  const folded = await finishedRun(id);
  // A run still going (or one this visitor may not read) is asked for by the page's own request
  // (use-run-events.ts), which takes this response: asked for with the page, not after its scripts ran.
  if (!folded) preload(`/api/runs/${encodeURIComponent(id)}/view`, { as: 'fetch', crossOrigin: 'anonymous' });
  return <RunPage runId={id} folded={folded} />;
}

/**
 * A finished run folded by the server (GET /api/runs/{id}/view's body, kept once folded), sent
 * with the page: the server's render draws the whole run, so its first paint needs no script,
 * and the page reads only the rest of the log after it. Undefined for a run still going, and
 * in room mode for a request without a session or another visitor's run (the page's request
 * for it is then answered as the API answers it).
 */
async function finishedRun(id: string): Promise<FoldedRun | undefined> {
  try {
    await requestOwnsRun(new Request('http://localhost/', { headers: await headers() }), id);
  } catch (error) {
    if (error instanceof HttpError) return undefined;
    throw error;
  }
  const body = await getFinishedRunViews().body(id);
  if (body === undefined) return undefined;
  const answer = JSON.parse(body) as FinishedRunView;
  return answer.finished ? { view: answer.view, named: answer.named } : undefined;
}
