import { ComparePage } from '@/components/compare/compare-page';

/** /compare?a=<run id>&b=<run id>[&sweep=<id>]: two runs side by side (with their sweep rows' paired result). */
export default async function CompareRoute({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
  return (
    <>
      <h1 className="sr-only">Compare two runs</h1>
      <ComparePage a={one(params.a)} b={one(params.b)} sweep={one(params.sweep)} />
    </>
  );
}
