'use client';

import { useState } from 'react';
import { api, ApiError } from '@/lib/client/api/client';
import { CopyButton } from '@/components/ui/copy-button';

/**
 * "Share read-only": a link anyone may open to read this run (its view and events, nothing
 * else; no room session needed). The link is shown once — the server keeps only its hash — and
 * "Revoke links" ends every link of the run.
 */
export function ShareRun({ runId }: { runId: string }) {
  const [link, setLink] = useState<string | undefined>();
  const [note, setNote] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setNote(undefined);
    try {
      await what();
    } catch (error) {
      setNote(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  const share = () =>
    act(async () => {
      const { path } = await api.shareRun(runId);
      setLink(new URL(path, window.location.origin).href);
    });
  const revoke = () =>
    act(async () => {
      const { revoked } = await api.revokeShares(runId);
      setLink(undefined);
      setNote(revoked === 1 ? '1 link revoked' : `${revoked} links revoked`);
    });
  return (
    <span className="flex items-center gap-1">
      {link ? (
        <>
          <a
            href={link}
            data-testid="share-link"
            className="max-w-48 truncate font-mono text-takeover underline"
          >
            {link}
          </a>
          <CopyButton text={link} look="link" note="anyone with it can read this run">
            Copy
          </CopyButton>
        </>
      ) : (
        <button
          type="button"
          data-testid="share-run"
          className="text-takeover underline disabled:opacity-40"
          disabled={busy}
          title="A link anyone can open to read this run, without changing it"
          onClick={() => void share()}
        >
          Share read-only
        </button>
      )}
      <button
        type="button"
        data-testid="revoke-shares"
        className="text-muted underline disabled:opacity-40"
        disabled={busy}
        title="End every share link of this run"
        onClick={() => void revoke()}
      >
        Revoke links
      </button>
      {note && (
        <span role="status" className="text-muted">
          {note}
        </span>
      )}
    </span>
  );
}
