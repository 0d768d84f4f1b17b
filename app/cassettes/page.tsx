import { CassetteList, ImportCassetteButton } from '@/components/cassettes/cassette-list';

export default function CassettesPage() {
  return (
    <div className="mx-auto flex max-w-[100rem] flex-col gap-3 p-4">
      <div className="flex items-start justify-between">
        <div>
          <h1 className="text-sm font-semibold">Cassettes</h1>
          <p className="max-w-3xl text-2xs text-muted">
            A cassette is a run&rsquo;s model traffic as it crossed the wire: the requests (no keys) and the responses&rsquo; bytes with their timing.
            Choose &ldquo;Recorded (cassette)&rdquo; as the vendor in the playground to replay one through the same SDK, offline, under any fault and
            recovery preset. The shipped ones were recorded from the strict simulated vendors, which do not read the prompt; record a real vendor with
            <code className="mx-1">npm run loop -- --record FILE</code>or &ldquo;Save as cassette&rdquo; on a run page.
          </p>
        </div>
        <ImportCassetteButton />
      </div>
      <CassetteList />
    </div>
  );
}
