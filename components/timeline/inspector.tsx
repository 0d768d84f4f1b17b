'use client';

import { useEffect, useMemo, useRef } from 'react';
import type { RunEvent } from '@/lib/protocol';
import { isModuleEvent, moduleWords } from '@/lib/mechanisms/modules/about';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import type { Selection } from '@/lib/client/run-view/run-store';
import { findTurn } from '@/lib/client/run-view/selectors';
import { logWhole } from '@/lib/client/run-view/run-store';
import { Button } from '@/components/ui/button';
import { ExplainEntries } from '@/components/explain/explain-entries';
import { InspectorDetails } from './inspector-details';
import { LogProgress } from './log-progress';
import { RawEvents } from './raw-events';

function eventsFor(
  log: readonly RunEvent[],
  sel: Selection,
  requestNo?: number,
  attempt?: number,
  background?: boolean,
): RunEvent[] {
  switch (sel.kind) {
    case 'marker':
      return log.filter((e) => e.seq === sel.seq);
    case 'turn':
      return log.filter((e) => 'iteration' in e && e.iteration === sel.iteration);
    case 'tool':
      return log.filter((e) => {
        if (!('iteration' in e) || e.iteration !== sel.iteration) return false;
        // A mechanism module's decision about the call: the group it ran in, what the loop did when its result never came back.
        if (isModuleEvent(e)) return moduleWords(e).callIds?.(e).includes(sel.key) ?? false;
        return (
          (e.event === 'tool_start' ||
            e.event === 'tool_call' ||
            e.event === 'tool_guard' ||
            e.event === 'arg_repair') &&
          (e.event === 'tool_guard' || e.call_id === undefined || e.call_id === sel.key)
        );
      });
    case 'attempt': {
      let inAttempt = false;
      return log.filter((e) => {
        if (e.event === 'model_request' && e.iteration === sel.iteration)
          inAttempt = e.request_no === requestNo;
        if (!inAttempt || !('iteration' in e) || e.iteration !== sel.iteration) return false;
        if ('attempt' in e && e.attempt !== undefined && e.attempt !== attempt && e.event !== 'model_request')
          return false;
        return background === undefined || e.event !== 'tool_start';
      });
    }
  }
}

/** The selected item: a summary first, the raw events one click away. */
export function Inspector() {
  const open = useRunStore((s) => s.inspectorOpen);
  const selection = useRunStore((s) => s.selection);
  const eventCount = useRunStore((s) => s.view.eventCount);
  const turns = useRunStore((s) => s.view.turns);
  const markers = useRunStore((s) => s.view.markers);
  const log = useRunStore((s) => s.log);
  // A finished run drawn before its whole log arrived: its events are listed once they are all in.
  const logLoading = !useRunStore(logWhole);
  const setOpen = useRunStore((s) => s.setInspectorOpen);

  const turn = selection && 'iteration' in selection ? findTurn(turns, selection.iteration) : undefined;
  const attempt =
    selection?.kind === 'attempt'
      ? turn?.attempts.find((a) => a.requestNo === selection.requestNo)
      : undefined;
  const tool = selection?.kind === 'tool' ? turn?.toolCalls.find((c) => c.key === selection.key) : undefined;
  const marker = selection?.kind === 'marker' ? markers.find((m) => m.seq === selection.seq) : undefined;

  const events = useMemo(
    () =>
      selection && !logLoading
        ? eventsFor(log, selection, attempt?.requestNo, attempt?.attempt, attempt?.background)
        : [],
    // eventCount: the log grew (it is appended in place)
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [selection, log, logLoading, eventCount, attempt?.requestNo],
  );

  // Focus goes into the inspector when it opens (a keyboard or screen-reader user lands on what
  // they asked for) and back to where it was when it closes.
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      heading.current?.focus({ preventScroll: true });
    } else if (opener.current?.isConnected) {
      opener.current.focus();
      opener.current = null;
    }
  }, [open]);

  if (!open) return null;
  return (
    <aside
      data-testid="inspector"
      aria-labelledby="inspector-heading"
      className="fixed inset-x-0 top-(--header-h) bottom-0 z-40 flex flex-col border-l border-line bg-panel md:static md:w-[26rem] md:shrink-0"
    >
      <div className="flex items-center justify-between border-b border-line px-3 py-1.5">
        <h2 id="inspector-heading" ref={heading} tabIndex={-1} className="text-xs font-semibold">
          Inspector
        </h2>
        <Button onClick={() => setOpen(false)} title="close (i)">
          close
        </Button>
      </div>
      <div className="flex-1 overflow-y-auto px-3 py-2 text-xs">
        {!selection && <p className="text-faint">Select a turn, an attempt bar, a tool call or a marker.</p>}
        {selection && !logLoading && <ExplainEntries events={events} />}
        {selection && <InspectorDetails turn={turn} attempt={attempt} tool={tool} marker={marker} />}
        {selection && logLoading && (
          <div className="mt-3 border-t border-line pt-2">
            <LogProgress />
          </div>
        )}
        {selection && !logLoading && (
          <div className="mt-3 border-t border-line pt-2">
            <RawEvents events={events} />
          </div>
        )}
      </div>
    </aside>
  );
}
