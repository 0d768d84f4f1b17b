'use client';

import { useRef, useState } from 'react';
import { ApiError } from '@/lib/client/api/client';
import { cassetteUrl, useCassettes, useImportCassette } from '@/lib/client/api/cassettes';
import { formatBytes } from '@/lib/run-view/format';
import { missingConfigText } from '@/lib/protocol/cassette';

/** The cassettes a run can replay: shipped, saved from runs, imported; each downloadable. */
export function CassetteList() {
  const { data, error } = useCassettes();
  if (error) return <p className="text-xs text-fail">{error.message}</p>;
  if (!data) return <p className="text-xs text-muted">Loading…</p>;
  return (
    <table className="w-full text-xs" data-testid="cassette-list">
      <thead className="text-left text-2xs text-muted">
        <tr>
          <th className="py-1 pr-3 font-medium">name</th>
          <th className="py-1 pr-3 font-medium">recorded from</th>
          <th className="py-1 pr-3 font-medium">exchanges</th>
          <th className="py-1 pr-3 font-medium">size</th>
          <th className="py-1 pr-3 font-medium">what</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {data.cassettes.map((c) => (
          <tr key={c.id} className="border-t border-line align-top">
            <td className="py-1 pr-3 font-mono">
              {c.name}
              {c.shipped && <span className="ml-1 text-2xs text-faint">(shipped)</span>}
            </td>
            <td className="py-1 pr-3">
              {c.source.kind === 'simulated' ? 'simulated vendor' : 'real endpoint'} {c.source.vendor} · {c.source.model}
            </td>
            <td className="py-1 pr-3 tabular-nums">
              {c.exchanges}
              {c.truncated ? ' (cut)' : ''}
            </td>
            <td className="py-1 pr-3 tabular-nums">{formatBytes(c.bytes)}</td>
            <td className="max-w-xl py-1 pr-3 text-2xs text-muted">
              {c.source.note}
              <span data-testid="cassette-config" className={`block ${c.config ? '' : 'text-wait'}`}>
                {c.config
                  ? `keeps its recorded config (picking it in the playground fills it in): ${c.config.task ? 'its own task' : `scenario ${c.config.scenario}'s task`}, preset ${c.config.preset}, seed ${c.config.seed}`
                  : missingConfigText(c.version)}
              </span>
            </td>
            <td className="py-1">
              <a href={cassetteUrl(c.id)} download className="text-takeover underline">
                download
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Upload a cassette file; the server removes every key it holds from it on the way in. */
export function ImportCassetteButton() {
  const input = useRef<HTMLInputElement>(null);
  const importCassette = useImportCassette();
  const [error, setError] = useState<string[]>([]);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError([]);
    let cassette: unknown;
    try {
      cassette = JSON.parse(await file.text());
    } catch (e) {
      setError([`${file.name} is not JSON: ${(e as Error).message}`]);
      return;
    }
    const name = file.name.replace(/\.cassette\.json$|\.json$/, '').slice(0, 120) || 'imported';
    importCassette.mutate({ name, cassette } as Parameters<typeof importCassette.mutate>[0], {
      onError: (e) => setError(e instanceof ApiError ? [e.message, ...e.details] : [String(e)]),
    });
    if (input.current) input.current.value = '';
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <label className="cursor-pointer rounded border border-line bg-panel px-2.5 py-1 text-xs font-medium hover:bg-sunken">
        {importCassette.isPending ? 'Importing…' : 'Import cassette'}
        <input ref={input} data-testid="import-cassette" type="file" accept=".json,application/json" className="sr-only" onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      {error.length > 0 && (
        <div data-testid="import-cassette-error" className="max-w-md text-2xs text-fail">
          {error.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </div>
      )}
    </div>
  );
}
