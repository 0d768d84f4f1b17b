import { preload } from 'react-dom';
import { Playground } from '@/components/controls/playground';
import { formFromSearch } from '@/lib/client/forms/form-url-read';

/**
 * The playground's form and the run on screen are read from the address here, on the server,
 * each value checked with its schema (form-url-read.ts): the page's JavaScript carries no schema.
 */
export default async function PlaygroundPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) params.set(name, first);
  }
  const initial = formFromSearch(params);
  // The run on screen, folded by the server when it is finished, asked for with the page (see app/runs/[id]/page.tsx).
  if (initial.runId)
    preload(`/api/runs/${encodeURIComponent(initial.runId)}/view`, { as: 'fetch', crossOrigin: 'anonymous' });
  return <Playground initial={initial} />;
}
