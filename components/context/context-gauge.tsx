'use client';

import type { CompactionView, ContextSample } from '@/lib/run-view/context-view-state';

const H = 84;
const BAR = 10;
const GAP = 3;

const STEP_LABEL: Record<CompactionView['step'], string> = {
  old_results: 'old results → stubs',
  micro_compact: 'micro-compact',
  summary: 'summary',
  hard_trim: 'hard trim',
};

/** Which request each applied compaction step came before (the first sample after it). */
function markersBySample(
  samples: readonly ContextSample[],
  steps: readonly CompactionView[],
): Map<number, CompactionView[]> {
  const out = new Map<number, CompactionView[]>();
  for (const step of steps) {
    if (!step.ok) continue;
    const index = samples.findIndex((s) => s.seq > step.seq);
    if (index < 0) continue;
    out.set(index, [...(out.get(index) ?? []), step]);
  }
  return out;
}

export function tokens(n: number): string {
  return n.toLocaleString('en-US');
}

/** The cached part of a request in words, as the vendor reported it. */
function cachedNote(s: ContextSample): string {
  if (!s.cached) return '';
  return `\nprompt cache: ${tokens(s.cached.read)} read, ${tokens(s.cached.written)} written, ${tokens(Math.max(0, (s.reported ?? 0) - s.cached.read - s.cached.written))} plain input`;
}

/**
 * The context gauge: one column per request, its size against the model's window — the
 * outline is the engine's estimate before sending, the fill what the vendor reported after,
 * its lower part solid where the vendor read that much from its prompt cache —
 * with the proactive threshold dashed and a violet marker where a compaction step ran.
 */
export function ContextGauge({
  samples,
  steps,
  selected,
  onSelect,
}: {
  samples: readonly ContextSample[];
  steps: readonly CompactionView[];
  selected?: number;
  onSelect: (index: number) => void;
}) {
  const window = samples.reduce((m, s) => Math.max(m, s.window), 0);
  const top = Math.max(window, ...samples.map((s) => Math.max(s.tokensEst, s.reported ?? 0))) || 1;
  const y = (n: number) => H - (n / top) * H;
  const markers = markersBySample(samples, steps);
  const width = Math.max(samples.length * (BAR + GAP) + GAP, 240);
  const threshold = samples.at(-1)?.threshold ?? 0;
  return (
    <svg
      data-testid="context-gauge"
      viewBox={`0 -14 ${width} ${H + 16}`}
      className="h-28 w-full"
      preserveAspectRatio="xMinYMid meet"
      role="img"
      aria-label="context size per request against the window"
    >
      {window > 0 && (
        <line x1={0} x2={width} y1={y(window)} y2={y(window)} className="stroke-fail" strokeWidth={1} />
      )}
      {threshold > 0 && (
        <line
          x1={0}
          x2={width}
          y1={y(threshold)}
          y2={y(threshold)}
          className="stroke-wait"
          strokeWidth={1}
          strokeDasharray="4 3"
        />
      )}
      <line x1={0} x2={width} y1={H} y2={H} className="stroke-line" strokeWidth={1} />
      {samples.map((s, i) => {
        const x = GAP + i * (BAR + GAP);
        const over = s.window > 0 && (s.reported ?? s.tokensEst) > s.window;
        const marks = markers.get(i);
        const title =
          `request ${i + 1} (turn ${s.iteration}): ~${tokens(s.tokensEst)} tokens estimated` +
          (s.reported !== undefined
            ? `, ${tokens(s.reported)} reported`
            : ', no report (refused or pending)') +
          (s.window > 0 ? ` of ${tokens(s.window)}` : '') +
          cachedNote(s) +
          (marks
            ? `\n${marks.map((m) => `${STEP_LABEL[m.step]} (${m.trigger}): ${tokens(m.tokensBefore)} → ${tokens(m.tokensAfter)}`).join('\n')}`
            : '');
        return (
          <g
            key={s.seq}
            data-testid="gauge-bar"
            data-index={i}
            onClick={() => onSelect(i)}
            className="cursor-pointer"
          >
            <title>{title}</title>
            <rect
              x={x - 1}
              y={-14}
              width={BAR + 2}
              height={H + 16}
              className={selected === i ? 'fill-sunken' : 'fill-transparent'}
            />
            {s.reported !== undefined && (
              <rect
                x={x}
                y={y(s.reported)}
                width={BAR}
                height={H - y(s.reported)}
                className={over ? 'fill-fail/60 stroke-fail' : 'fill-run/50 stroke-run'}
                strokeWidth={1}
              />
            )}
            {s.cached !== undefined && s.cached.read > 0 && (
              <rect
                data-testid="gauge-cached"
                x={x}
                y={y(s.cached.read)}
                width={BAR}
                height={H - y(s.cached.read)}
                className="fill-run"
              />
            )}
            <rect
              x={x}
              y={y(s.tokensEst)}
              width={BAR}
              height={H - y(s.tokensEst)}
              className={over ? 'stroke-fail' : 'stroke-run'}
              fill="none"
              strokeWidth={1}
            />
            {marks && (
              <path
                data-testid="gauge-marker"
                d={`M${x} -12 L${x + BAR} -12 L${x + BAR / 2} -4 Z`}
                className="fill-compact"
              />
            )}
          </g>
        );
      })}
    </svg>
  );
}
