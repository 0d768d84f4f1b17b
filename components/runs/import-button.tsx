'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { ApiError } from '@/lib/client/api/client';
import { useImportRun } from '@/lib/client/api/runs';

/** Upload a .jsonl trace; on success, open the imported run. */
export function ImportButton() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const importRun = useImportRun();
  const [error, setError] = useState<string[]>([]);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError([]);
    const text = await file.text();
    importRun.mutate(text, {
      onSuccess: ({ id }) => router.push(`/runs/${id}`),
      onError: (e) => setError(e instanceof ApiError ? [e.message, ...e.details] : [String(e)]),
    });
    if (input.current) input.current.value = '';
  };

  return (
    <div className="flex flex-col items-end gap-1">
      <label className="cursor-pointer rounded border border-line bg-panel px-2.5 py-1 text-xs font-medium hover:bg-sunken">
        {importRun.isPending ? 'Importing…' : 'Import .jsonl'}
        <input
          ref={input}
          data-testid="import-input"
          type="file"
          accept=".jsonl,.ndjson,application/x-ndjson,application/json,text/plain"
          className="sr-only"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
      </label>
      {error.length > 0 && (
        <div data-testid="import-error" className="max-w-md text-2xs text-fail">
          {error.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </div>
      )}
    </div>
  );
}
