import { notFound } from 'next/navigation';
import { preload } from 'react-dom';
import { RunPage } from '@/components/runs/run-page';
import { getStore } from '@/lib/store';

export default async function RunDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // An id no run has is a 404 with a way back, not a run page with its actions around an empty log.
  if (!getStore().getRun(id)) notFound();
  // The run folded by the server (a finished one; a live one answers that it is live) is asked for
  // with the page, not after its scripts have run: the page's own request (use-run-events.ts)
  // takes this response.
  preload(`/api/runs/${encodeURIComponent(id)}/view`, { as: 'fetch', crossOrigin: 'anonymous' });
  return <RunPage runId={id} />;
}
