import Link from 'next/link';

/** Any page whose run, sweep, cassette or path does not exist: a 404 that says so, with the ways back and no actions. */
export default function NotFound() {
  return (
    <section className="mx-auto max-w-xl px-4 py-16" data-testid="not-found">
      <h1 className="text-lg font-semibold">Nothing here</h1>
      <p className="mt-2 text-sm">
        No run, sweep, cassette or page has this address: the id may be mistyped, or its data folder is not
        the one this server uses.
      </p>
      <p className="mt-4 flex gap-4 text-sm">
        <Link className="underline" href="/runs">
          Runs list
        </Link>
        <Link className="underline" href="/sweeps">
          Sweeps
        </Link>
        <Link className="underline" href="/cassettes">
          Cassettes
        </Link>
        <Link className="underline" href="/">
          Playground
        </Link>
      </p>
    </section>
  );
}
