'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, ApiError } from '@/lib/client/api/client';
import { useTasks, useUploadTask } from '@/lib/client/api/tasks';
import { folderUpload } from '@/lib/client/tasks/read-folder';
import type { RunConfigInput } from '@/lib/protocol';
import { formatBytes } from '@/lib/run-view/format';
import { Button } from '@/components/ui/button';

/** What the tasks page starts a run with: the simulated vendor on the virtual clock (the playground has every other setting). */
const RUN_BASE = { provider: { vendor: 'sim-anthropic' }, clock: 'virtual' } as const;

const errorLines = (e: unknown): string[] =>
  e instanceof ApiError ? [e.message, ...e.details] : [e instanceof Error ? e.message : String(e)];

/**
 * The tasks a run can work on: the built-in ones, and task folders uploaded here (docs/tasks.md),
 * in room mode the visitor's own. Each row starts a run on its task and opens it.
 */
export function TasksView() {
  const { data, error } = useTasks();
  const router = useRouter();
  const [starting, setStarting] = useState<string | undefined>();
  const [runError, setRunError] = useState<string[]>([]);

  const run = async (key: string, config: RunConfigInput) => {
    setStarting(key);
    setRunError([]);
    try {
      const { id } = await api.createRun(config);
      router.push(`/runs/${encodeURIComponent(id)}`);
    } catch (e) {
      setRunError(errorLines(e));
      setStarting(undefined);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <UploadTask />
      {runError.length > 0 && (
        <div role="alert" data-testid="task-run-error" className="text-2xs text-fail">
          {runError.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </div>
      )}
      {error && <p className="text-xs text-fail">{error.message}</p>}
      {!data && !error && <p className="text-xs text-muted">Loading…</p>}
      {data && (
        <>
          <section aria-labelledby="uploaded-tasks" className="flex flex-col gap-1">
            <h2 id="uploaded-tasks" className="text-xs font-semibold">
              Uploaded
            </h2>
            {data.uploaded.length === 0 ? (
              <p className="text-2xs text-muted" data-testid="no-uploaded-tasks">
                No task uploaded yet.
              </p>
            ) : (
              <table className="w-full text-xs" data-testid="uploaded-tasks">
                <thead className="text-left text-2xs text-muted">
                  <tr>
                    <th className="py-1 pr-3 font-medium">task</th>
                    <th className="py-1 pr-3 font-medium">what</th>
                    <th className="py-1 pr-3 font-medium">files</th>
                    <th className="py-1 pr-3 font-medium">hidden tests</th>
                    <th className="py-1 pr-3 font-medium">sha256</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {data.uploaded.map((t) => (
                    <tr
                      key={t.id}
                      className="border-t border-line align-top"
                      data-testid="uploaded-task"
                      data-id={t.id}
                    >
                      <td className="py-1 pr-3 font-mono">{t.task_id}</td>
                      <td className="py-1 pr-3">
                        {t.title}
                        {t.summary !== t.title && (
                          <span className="block text-2xs text-muted">{t.summary}</span>
                        )}
                      </td>
                      <td className="py-1 pr-3 tabular-nums">
                        {t.files} · {formatBytes(t.bytes)}
                      </td>
                      <td className="py-1 pr-3 tabular-nums">{t.hidden}</td>
                      <td className="py-1 pr-3 font-mono text-2xs text-muted" title={t.sha256}>
                        {t.sha256.slice(0, 12)}…
                      </td>
                      <td className="py-1 text-right">
                        <Button
                          variant="primary"
                          disabled={starting !== undefined}
                          aria-label={`Run ${t.task_id}`}
                          onClick={() =>
                            void run(t.id, {
                              ...RUN_BASE,
                              scenario: t.task_id,
                              taskUpload: { id: t.id, sha256: t.sha256 },
                            })
                          }
                        >
                          {starting === t.id ? 'Starting…' : 'Run'}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section aria-labelledby="builtin-tasks" className="flex flex-col gap-1">
            <h2 id="builtin-tasks" className="text-xs font-semibold">
              Built in
            </h2>
            <table className="w-full text-xs" data-testid="builtin-tasks">
              <thead className="text-left text-2xs text-muted">
                <tr>
                  <th className="py-1 pr-3 font-medium">task</th>
                  <th className="py-1 pr-3 font-medium">what</th>
                  <th className="py-1 pr-3 font-medium">hidden tests</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.builtin.map((t) => (
                  <tr
                    key={t.id}
                    className="border-t border-line align-top"
                    data-testid="builtin-task"
                    data-id={t.id}
                  >
                    <td className="py-1 pr-3 font-mono">{t.id}</td>
                    <td className="py-1 pr-3">
                      {t.title}
                      <span className="block text-2xs text-muted">{t.summary}</span>
                    </td>
                    <td className="py-1 pr-3 tabular-nums">{t.hidden}</td>
                    <td className="py-1 text-right">
                      <Button
                        disabled={starting !== undefined}
                        aria-label={`Run ${t.id}`}
                        onClick={() => void run(`builtin:${t.id}`, { ...RUN_BASE, scenario: t.id })}
                      >
                        {starting === `builtin:${t.id}` ? 'Starting…' : 'Run'}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
    </div>
  );
}

/** Choose a task folder: read here (text files within the limits), sent as its files, checked again by the server. */
function UploadTask() {
  const upload = useUploadTask();
  const [problems, setProblems] = useState<string[]>([]);
  const [uploaded, setUploaded] = useState<string | undefined>();

  const onFiles = async (list: FileList | null) => {
    setProblems([]);
    setUploaded(undefined);
    if (!list) return;
    const chosen = await Promise.all(
      Array.from(list).map(async (file) => ({
        path: file.webkitRelativePath || file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
      })),
    );
    const read = folderUpload(chosen);
    if (!read.ok) {
      setProblems(read.problems);
      return;
    }
    upload.mutate(
      { name: read.name, files: read.files },
      {
        onSuccess: (task) => setUploaded(`${task.task_id}: ${task.title}`),
        onError: (e) => setProblems(errorLines(e)),
      },
    );
  };

  return (
    <div className="flex flex-col gap-1 rounded border border-line bg-panel p-3">
      <label className="flex flex-wrap items-center gap-2 text-xs">
        <span className="font-medium">Upload a task folder</span>
        <input
          type="file"
          multiple
          data-testid="task-folder-input"
          // A folder picker: every file inside the chosen folder, each with its path in it.
          ref={(el) => el?.setAttribute('webkitdirectory', '')}
          className="text-2xs"
          onChange={(e) => {
            void onFiles(e.target.files);
            e.target.value = '';
          }}
        />
      </label>
      <p className="text-2xs text-muted">
        A folder with <code>task.md</code>, <code>workspace/</code>, <code>tests/</code>, and optionally{' '}
        <code>hidden/</code> and <code>task.json</code>; text files only, at most 2,000 files and 8 MB. Its
        hidden tests run only in the verdict, never in the model&rsquo;s workspace.
      </p>
      {upload.isPending && <p className="text-2xs text-muted">Uploading…</p>}
      {uploaded && (
        <p role="status" data-testid="task-uploaded" className="text-2xs text-ok">
          Uploaded {uploaded}
        </p>
      )}
      {problems.length > 0 && (
        <div role="alert" data-testid="task-upload-error" className="text-2xs text-fail">
          {problems.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </div>
      )}
    </div>
  );
}
