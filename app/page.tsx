import { Playground } from '@/components/controls/playground';
import { formFromSearch } from '@/lib/client/forms/form-url-read';

/**
 * The playground's form and the run on screen are read from the address here, on the server,
 * each value checked with its schema (form-url-read.ts): the page's JavaScript carries no schema.
 */
export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) params.set(name, first);
  }
  return <Playground initial={formFromSearch(params)} />;
}
