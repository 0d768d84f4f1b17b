'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { api, ApiError } from '@/lib/client/api/client';

/** The room code field: POST /api/room/join, then on to the page the visitor came from (or the playground). */
export function JoinRoomForm() {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { teacher } = await api.joinRoom(code.trim());
      const next = new URLSearchParams(window.location.search).get('next');
      // Only a path on this site: the link is the 401's, but anyone can write one. The teacher's
      // first page is the board.
      window.location.assign(
        next?.startsWith('/') && !next.startsWith('//') ? next : teacher ? '/board' : '/',
      );
    } catch (caught) {
      setError(caught instanceof ApiError ? [caught.message, ...caught.details].join(': ') : String(caught));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
      <label className="flex flex-col gap-1 text-xs">
        Room code
        <input
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          autoFocus
          required
          className="rounded border border-line bg-panel px-2 py-1 font-mono text-sm"
        />
      </label>
      <Button type="submit" variant="primary" disabled={busy || code.trim() === ''}>
        {busy ? 'Joining…' : 'Join'}
      </Button>
      {error && (
        <p role="alert" className="text-xs text-fail">
          {error}
        </p>
      )}
    </form>
  );
}
