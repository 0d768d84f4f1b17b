import { headers } from 'next/headers';
import { preload } from 'react-dom';
import { Playground } from '@/components/controls/playground';
import { formFromSearch } from '@/lib/client/forms/form-url-read';
import { warmUp } from '@/lib/runtime/warm-up';
import { pickLists } from '@/lib/server';

/**
 * The playground's form and the run on screen are read from the address here, on the server,
 * each value checked with its schema (form-url-read.ts): the page's JavaScript carries no schema.
 * The pickers' lists (scenarios, cassettes, prompt sets) are read here too and sent with the
 * HTML (lib/server/pick-lists.ts), so the page asks for none of them when it mounts.
 */
export default async function PlaygroundPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // The playground is where runs start: pay the first run's one-time costs now.
  void warmUp();
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) params.set(name, first);
  }
  const initial = formFromSearch(params);
  // The room's session is in the request's cookies: the visitor's own cassettes and prompt sets.
  const lists = await pickLists(new Request('http://localhost/', { headers: await headers() }));
  // The run on screen, folded by the server when it is finished, asked for with the page (see app/runs/[id]/page.tsx).
  if (initial.runId)
    preload(`/api/runs/${encodeURIComponent(initial.runId)}/view`, { as: 'fetch', crossOrigin: 'anonymous' });
  return <Playground initial={lists ? { ...initial, lists } : initial} />;
}
