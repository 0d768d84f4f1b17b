'use client';

import { memo, useCallback } from 'react';
import { formatMs } from '@/lib/run-view/format';
import { useRunStore, useRunStoreApi } from '@/lib/client/run-view/run-store-provider';
import type { AttemptView } from '@/lib/run-view/run-view-state';
import { selectTurn, type WaterfallRowSpec } from '@/lib/client/run-view/selectors';
import { marksOf } from '@/lib/run-view/fold-turn-events';
import { TONE_BAR, TONE_TEXT, toolTone } from '@/components/ui/tone';
import { AttemptBar } from './waterfall-attempts';
import { pct, pctWidth } from './waterfall-scale';
import { ZoomTrack } from './zoom-track';
import type { TimeWindow } from '@/lib/client/run-view/time-window';

export const ROW_HEIGHT = 20;

/**
 * One waterfall row. It selects only its own turn, so a delta re-renders the row of the
 * turn it belongs to and nothing else.
 */
export const WaterfallRow = memo(function WaterfallRow({
  spec,
  domain,
  window,
  liveEnd,
}: {
  spec: WaterfallRowSpec;
  domain: number;
  /** The visible stretch of run time (zoom). */
  window: TimeWindow;
  liveEnd: number;
}) {
  const turn = useRunStore(selectTurn(spec.iteration));
  const selection = useRunStore((s) => s.selection);
  const api = useRunStoreApi();
  const onSelectAttempt = useCallback(
    (a: AttemptView) => {
      api.getState().select({ kind: 'attempt', iteration: spec.iteration, requestNo: a.requestNo });
      api.getState().setInspectorOpen(true);
    },
    [api, spec.iteration],
  );
  if (!turn) return null;

  let label: string;
  let body: React.ReactNode;
  if (spec.kind === 'tool') {
    const call = turn.toolCalls[spec.index];
    if (!call) return null;
    const end = call.endTs ?? Math.max(liveEnd, call.startTs);
    const tone = toolTone(call.status);
    const isSelected =
      selection?.kind === 'tool' && selection.iteration === spec.iteration && selection.key === call.key;
    // The marks mechanisms put on the call's bar (a call that ran at once with others: ∥, and its bar overlaps theirs).
    const bars = marksOf(turn, call.callId).flatMap((m) => (m.bar ? [m.bar] : []));
    const together = bars.map((b) => ` · ${b.note}`).join('');
    label = `  ${bars[0]?.glyph ?? '⚙'} ${call.tool}`;
    body = (
      <button
        type="button"
        title={`${call.tool} · ${call.status} · ${formatMs(call.latencyMs ?? end - call.startTs)}${call.truncatedChars ? ` · truncated ${call.truncatedChars} chars` : ''}${call.repaired ? ` · arguments repaired (${call.repaired.join(' + ')})` : ''}${together}`}
        {...Object.fromEntries(bars.map((b) => [`data-${b.data}`, true]))}
        data-repaired={call.repaired ? call.repaired.join(' ') : undefined}
        onClick={() => {
          api.getState().select({ kind: 'tool', iteration: spec.iteration, key: call.key });
          api.getState().setInspectorOpen(true);
        }}
        data-failed={tone === 'fail' || undefined}
        className={`absolute top-1.5 bottom-1.5 rounded-sm ${TONE_BAR[tone]} ${tone === 'fail' ? 'mark-failed text-panel' : ''} ${isSelected ? 'ring-2 ring-fg' : ''}`}
        style={{
          left: pct(call.startTs, domain),
          width: pctWidth(call.startTs, Math.max(end, call.startTs + domain / 300), domain),
        }}
      />
    );
  } else {
    const background = spec.kind === 'background';
    const attempts = turn.attempts.filter((a) => a.background === background);
    label = background ? `  turn ${turn.iteration} · bg` : `turn ${turn.iteration}`;
    body = attempts.map((a) => (
      <AttemptBar
        key={a.requestNo}
        a={a}
        domain={domain}
        liveEnd={liveEnd}
        selected={
          selection?.kind === 'attempt' &&
          selection.iteration === spec.iteration &&
          selection.requestNo === a.requestNo
        }
        onSelect={onSelectAttempt}
      />
    ));
    const fallbacks = background ? [] : turn.fallbacks;
    body = (
      <>
        {body}
        {fallbacks.map((f) => (
          <div
            key={`fb-${f.ts}`}
            className="absolute inset-y-0 w-0.5 bg-takeover"
            style={{ left: pct(f.ts, domain) }}
            title={`fallback ${f.fromModel} → ${f.toModel}: ${f.reason}`}
          />
        ))}
      </>
    );
  }

  return (
    <div className="flex items-stretch" style={{ height: ROW_HEIGHT }}>
      <div
        className={`w-28 shrink-0 truncate pr-2 font-mono text-2xs leading-5 whitespace-pre ${spec.kind === 'tool' ? TONE_TEXT.neutral : ''}`}
        title={label.trim()}
      >
        {label}
      </div>
      <ZoomTrack window={window} domain={domain}>
        {body}
      </ZoomTrack>
    </div>
  );
});
