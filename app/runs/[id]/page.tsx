import { preload } from 'react-dom';
import { RunPage } from '@/components/runs/run-page';

export default async function RunDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The run folded by the server (a finished one; a live one answers that it is live) is asked for
  // with the page, not after its scripts have run: the page's own request (use-run-events.ts)
  // takes this response.
  preload(`/api/runs/${encodeURIComponent(id)}/view`, { as: 'fetch', crossOrigin: 'anonymous' });
  return <RunPage runId={id} />;
}
