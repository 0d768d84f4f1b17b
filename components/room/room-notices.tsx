'use client';

import { useEffect, useState } from 'react';
import { useEventStream } from '@/lib/client/api/event-stream';
import { formFromConfig } from '@/lib/client/forms/form-from-config';
import { formToSearch } from '@/lib/client/forms/form-url';
import type { RunConfig } from '@/lib/protocol/config';
import type { RoomNotice } from '@/lib/protocol/http';

/** Set with a room session (lib/server/room-session.ts ROOM_MEMBER_COOKIE): readable by the page. */
const MEMBER_COOKIE = 'loop_lab_room_member=1';
/** The id of the last notice this tab dismissed or opened. */
const DONE_KEY = 'loop-lab-room-notice-done';

/**
 * The teacher's "open this" on every page of a room visitor: a notice with a link to the lesson
 * or to the playground holding the config sent. The stream (GET /api/room/notices) is opened
 * only in a room, which the member cookie says: outside room mode the page asks for nothing.
 */
export function RoomNotices() {
  const [url, setUrl] = useState<string | undefined>();
  const [notice, setNotice] = useState<RoomNotice | undefined>();
  useEffect(() => {
    if (!document.cookie.split('; ').includes(MEMBER_COOKIE)) return;
    // A notice dismissed (or opened) in this tab is not shown again on its next page.
    const done = sessionStorage.getItem(DONE_KEY);
    setUrl(`/api/room/notices${done ? `?after=${encodeURIComponent(done)}` : ''}`);
  }, []);
  useEventStream(url, {
    onMessage: (value) => setNotice(value as RoomNotice),
  });
  if (!notice) return null;
  const finish = () => {
    sessionStorage.setItem(DONE_KEY, String(notice.id));
    setNotice(undefined);
  };
  const href =
    notice.kind === 'lesson'
      ? `/lessons/${encodeURIComponent(notice.slug)}`
      : `/?${formToSearch(formFromConfig(notice.config as RunConfig).form)}`;
  return (
    <div
      role="status"
      data-testid="room-notice"
      className="flex items-center gap-3 border-b border-line bg-sunken px-4 py-1.5 text-xs"
    >
      <span>
        The teacher asks everyone to open{' '}
        {notice.kind === 'lesson' ? <>the lesson “{notice.title}”</> : <>a config: {notice.title}</>}.
      </span>
      <a href={href} data-testid="room-notice-open" onClick={finish} className="text-takeover underline">
        Open it
      </a>
      <button type="button" className="ml-auto text-muted underline" onClick={finish}>
        Dismiss
      </button>
    </div>
  );
}
