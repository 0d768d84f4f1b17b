import { panWindow, zoomWindow, type TimeWindow } from '@/lib/client/run-view/time-window';

const BUTTON =
  'rounded px-0.5 font-mono leading-3 text-muted hover:bg-sunken hover:text-fg disabled:opacity-30';

/** Zoom in and out around the middle, pan by a quarter, and back to the whole run. */
export function WaterfallZoomControls({
  window,
  domain,
  zoomed,
  onChange,
  onReset,
}: {
  window: TimeWindow;
  domain: number;
  zoomed: boolean;
  onChange: (w: TimeWindow) => void;
  onReset: () => void;
}) {
  return (
    <span className="ml-auto flex items-center" role="group" aria-label="zoom the time axis">
      <button
        type="button"
        className={BUTTON}
        data-testid="waterfall-zoom-in"
        aria-label="zoom in"
        title="zoom in (Ctrl + wheel)"
        onClick={() => onChange(zoomWindow(window, { factor: 0.5, domain }))}
      >
        +
      </button>
      <button
        type="button"
        className={BUTTON}
        data-testid="waterfall-zoom-out"
        aria-label="zoom out"
        title="zoom out"
        disabled={!zoomed}
        onClick={() => onChange(zoomWindow(window, { factor: 2, domain }))}
      >
        −
      </button>
      <button
        type="button"
        className={BUTTON}
        data-testid="waterfall-pan-left"
        aria-label="earlier"
        title="earlier (Shift + wheel)"
        disabled={!zoomed || window.from <= 0}
        onClick={() => onChange(panWindow(window, { by: -0.25, domain }))}
      >
        ‹
      </button>
      <button
        type="button"
        className={BUTTON}
        data-testid="waterfall-pan-right"
        aria-label="later"
        title="later (Shift + wheel)"
        disabled={!zoomed || window.to >= domain}
        onClick={() => onChange(panWindow(window, { by: 0.25, domain }))}
      >
        ›
      </button>
      <button
        type="button"
        className={BUTTON}
        data-testid="waterfall-zoom-reset"
        aria-label="the whole run"
        title="the whole run"
        disabled={!zoomed}
        onClick={onReset}
      >
        ⤢
      </button>
    </span>
  );
}
