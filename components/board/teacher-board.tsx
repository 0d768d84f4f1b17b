'use client';

import { useState } from 'react';
import { api, ApiError } from '@/lib/client/api/client';
import { useEventStream } from '@/lib/client/api/event-stream';
import type { Board } from '@/lib/protocol/http';
import { Button } from '@/components/ui/button';

/**
 * The teacher's board: the room as GET /api/board/events streams it (the whole board after each
 * change; nothing here polls or counts), and "open this" for every visitor's page.
 */
export function TeacherBoard({ lessons }: { lessons: { slug: string; title: string }[] }) {
  const [board, setBoard] = useState<Board | undefined>();
  const [streamError, setStreamError] = useState(false);
  useEventStream('/api/board/events', {
    onMessage: (value) => {
      setStreamError(false);
      setBoard(value as Board);
    },
    onError: (closed) => setStreamError(closed),
  });
  if (!board)
    return (
      <p className="p-4 text-xs text-muted" role={streamError ? 'alert' : undefined}>
        {streamError ? (
          <>
            The board is the teacher’s:{' '}
            <a href="/room?next=/board" className="underline" data-testid="board-join">
              join the room with the teacher code
            </a>{' '}
            to open it.
          </>
        ) : (
          'Opening the board…'
        )}
      </p>
    );
  return (
    <div className="flex flex-col gap-4 p-4 text-xs">
      <SendNotice lessons={lessons} />
      <section aria-labelledby="board-lessons">
        <h2 id="board-lessons" className="mb-1 text-sm font-semibold">
          Lessons
        </h2>
        <table className="w-full border-collapse" data-testid="board-tally">
          <thead className="text-left text-muted">
            <tr>
              <th className="py-1 pr-2 font-normal">lesson</th>
              <th className="py-1 pr-2 font-normal">played</th>
              <th className="py-1 pr-2 font-normal">both sides ended</th>
              <th className="py-1 pr-2 font-normal">mechanism on: completed</th>
              <th className="py-1 pr-2 font-normal">mechanism off: failed</th>
              <th className="py-1 pr-2 font-normal">first divergence seen</th>
            </tr>
          </thead>
          <tbody>
            {board.lessons.map((tally) => (
              <tr
                key={tally.slug}
                data-testid={`tally-${tally.slug}`}
                // A lesson no one has played yet is dimmed, so the ones the room is on stand out.
                className={`border-t border-line ${tally.played === 0 ? 'text-muted' : 'font-medium'}`}
              >
                <td className="py-1 pr-2">{tally.title}</td>
                <td className="py-1 pr-2 tabular-nums" data-col="played">
                  {tally.played}
                </td>
                <td className="py-1 pr-2 tabular-nums" data-col="ended">
                  {tally.ended}
                </td>
                <td className="py-1 pr-2 tabular-nums" data-col="onCompleted">
                  {tally.onCompleted}
                </td>
                <td className="py-1 pr-2 tabular-nums" data-col="offFailed">
                  {tally.offFailed}
                </td>
                <td className="py-1 pr-2 tabular-nums" data-col="diverged">
                  {tally.diverged}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="board-visitors">
        <h2 id="board-visitors" className="mb-1 text-sm font-semibold">
          In the room ({board.visitors.length})
        </h2>
        {board.visitors.length === 0 ? (
          <p className="text-muted">Nobody has joined yet.</p>
        ) : (
          <ul data-testid="board-visitors">
            {board.visitors.map((visitor) => (
              <li key={visitor.name}>
                {visitor.name}:{' '}
                {visitor.lesson
                  ? (lessons.find((l) => l.slug === visitor.lesson)?.title ?? visitor.lesson)
                  : 'no lesson yet'}
                {visitor.running > 0 ? ` · ${visitor.running} running` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="board-flight">
        <h2 id="board-flight" className="mb-1 text-sm font-semibold">
          Runs in flight ({board.inFlight.length})
        </h2>
        <ul data-testid="board-in-flight" className="font-mono">
          {board.inFlight.map((run) => (
            <li key={run.run}>
              {run.run} · {run.visitor}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** "Open this": a lesson for every visitor's page. */
function SendNotice({ lessons }: { lessons: { slug: string; title: string }[] }) {
  const [slug, setSlug] = useState(lessons[0]?.slug ?? '');
  const [note, setNote] = useState<string | undefined>();
  const send = async () => {
    try {
      const notice = await api.sendNotice({ lesson: slug });
      setNote(`Sent: open “${notice.title}”`);
    } catch (error) {
      setNote(error instanceof ApiError ? error.message : String(error));
    }
  };
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label className="flex items-center gap-1">
        Send everyone
        <select
          value={slug}
          onChange={(event) => setSlug(event.target.value)}
          data-testid="notice-lesson"
          className="rounded border border-line bg-panel px-1 py-0.5"
        >
          {lessons.map((lesson) => (
            <option key={lesson.slug} value={lesson.slug}>
              {lesson.title}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" data-testid="send-notice">
        Open this for everyone
      </Button>
      {note && (
        <span role="status" className="text-muted">
          {note}
        </span>
      )}
    </form>
  );
}
