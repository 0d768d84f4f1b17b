import { memo } from 'react';
import { formatMs, truncateText } from '@/lib/run-view/format';
import type { AlignedTurn, TurnSide } from '@/lib/protocol/http/compare';

/** Turn n of both runs, each side's card condensed: what was said, tool calls, recovery, time. */
export const TurnRow = memo(function TurnRow({
  row,
  firstDivergence,
  reason,
  runModels,
}: {
  row: AlignedTurn;
  firstDivergence: boolean;
  /** At the first divergence: what differed there, as the divergence describes it (two cards can look alike). */
  reason?: string;
  /** Each side's vendor and model as its header names them (where the run started). */
  runModels: { a: string; b: string };
}) {
  return (
    <div
      data-testid="compare-turn"
      data-turn={row.turn}
      data-diverged={firstDivergence ? 'true' : 'false'}
      className={`grid grid-cols-[3rem_1fr_1fr] gap-3 rounded border px-2 py-1.5 ${firstDivergence ? 'border-wait bg-wait-soft/40' : 'border-line'}`}
    >
      <div className="flex flex-col text-2xs">
        <span className="font-semibold">turn {row.turn}</span>
        {firstDivergence && (
          <span
            className="font-semibold text-wait"
            data-testid="divergence-marker"
            title="the first step where the two runs differ is in this turn"
          >
            ◆ diverges
          </span>
        )}
      </div>
      <SideCard side={row.a} letter="a" runModel={runModels.a} />
      <SideCard side={row.b} letter="b" runModel={runModels.b} />
      {firstDivergence && reason && (
        <p className="col-span-3 text-2xs text-wait" data-testid="divergence-reason">
          ◆ {reason}
        </p>
      )}
    </div>
  );
});

/** Where a turn ran when that is not what the side's header says: after a takeover, or a fork's copied turn. */
export function turnOrigin(side: Pick<TurnSide, 'vendor' | 'model' | 'copied'>, runModel: string): string[] {
  const notes: string[] = [];
  if (side.copied) notes.push('copied from the parent run');
  const model = side.vendor && side.model ? `${side.vendor} ${side.model}` : null;
  if (model && model !== runModel) notes.push(`on ${model}`);
  return notes;
}

function SideCard({
  side,
  letter,
  runModel,
}: {
  side: TurnSide | null;
  letter: 'a' | 'b';
  runModel: string;
}) {
  if (!side)
    return (
      <div className="text-2xs text-faint" data-testid={`turn-side-${letter}`}>
        no such turn
      </div>
    );
  return (
    <div className="min-w-0 text-xs" data-testid={`turn-side-${letter}`}>
      <div className="tabular flex flex-wrap gap-x-3 font-mono text-2xs text-muted">
        <span>{side.finished ? formatMs(side.durationMs) : `${formatMs(side.durationMs)} so far`}</span>
        <span>
          {side.attempts} request{side.attempts === 1 ? '' : 's'}
        </span>
        {side.stopReason && <span>stop: {side.stopReason}</span>}
        {turnOrigin(side, runModel).map((note) => (
          <span key={note} className="text-takeover" data-testid="turn-origin">
            {note}
          </span>
        ))}
      </div>
      {side.text && <p className="mt-0.5 whitespace-pre-wrap break-words">{truncateText(side.text, 280)}</p>}
      {side.toolCalls.length > 0 && (
        <ul className="mt-0.5 font-mono text-2xs">
          {side.toolCalls.map((t, i) => (
            <li key={i} className="[overflow-wrap:anywhere]">
              ⚙ {t}
            </li>
          ))}
        </ul>
      )}
      {side.recovery.length > 0 && (
        <ul className="mt-0.5 text-2xs text-wait">
          {side.recovery.map((r, i) => (
            <li key={i}>↻ {r}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
