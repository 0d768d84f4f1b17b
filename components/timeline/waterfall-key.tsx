import { MARKER_SHAPE, MARKER_TONE } from './waterfall-markers';

const MARKER_WORDS = [
  ['fault', 'fault'],
  ['storage', 'storage failure'],
  ['control', 'control change or note'],
  ['swap', 'swap'],
] as const;

/**
 * The waterfall's key: what each pattern means, drawn with the same classes as the marks. The
 * patterns carry meaning beside the colours (WCAG 1.4.1), so a reader who cannot tell amber from
 * red still tells a failed attempt (cross-hatched) from a backoff wait (hatched one way).
 */

function Swatch({ className }: { className: string }) {
  return <span aria-hidden className={`inline-block h-2.5 w-5 shrink-0 rounded-sm ${className}`} />;
}

/** `markerKinds`: the marker kinds on this run's axis; only those get a line. */
export function WaterfallKey({ markerKinds }: { markerKinds: ReadonlySet<string> }) {
  return (
    <ul
      data-testid="waterfall-key"
      aria-label="waterfall key"
      className="flex flex-wrap gap-x-3 gap-y-0.5 pt-1 text-2xs text-faint"
    >
      <li className="flex items-center gap-1">
        <span
          aria-hidden
          className="relative inline-block h-2.5 w-5 shrink-0 overflow-hidden rounded-sm border border-ok"
        >
          <span className="absolute inset-0 bg-ok opacity-30" />
          <span className="absolute inset-y-0 right-0 w-2 bg-ok" />
        </span>
        attempt, solid where content streamed
      </li>
      <li className="flex items-center gap-1">
        <span
          aria-hidden
          className="relative inline-block h-2.5 w-5 shrink-0 overflow-hidden rounded-sm border border-fail"
        >
          <span className="mark-failed absolute inset-0 text-fail" />
        </span>
        failed: error, stall or cut
      </li>
      <li className="flex items-center gap-1">
        <Swatch className="hatch-wait border border-wait" />
        backoff wait
      </li>
      <li className="flex items-center gap-1">
        <Swatch className="band-watchdog" />
        watchdog window
      </li>
      {MARKER_WORDS.filter(
        ([kind]) => markerKinds.has(kind) || (kind === 'control' && markerKinds.has('log')),
      ).map(([kind, words]) => (
        <li key={kind} className="flex items-center gap-1">
          <span aria-hidden className="inline-flex h-3 w-3 shrink-0 items-center justify-center">
            <span className={`inline-block ${MARKER_SHAPE[kind]} ${MARKER_TONE[kind]}`} />
          </span>
          {words}
        </li>
      ))}
    </ul>
  );
}
