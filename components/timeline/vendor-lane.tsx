'use client';

import { formatMs } from '@/lib/run-view/format';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { parseVendorLane, selectVendorLane } from '@/lib/client/run-view/vendor-lane';
import { pct, pctWidth } from './waterfall-scale';
import { ZoomTrack } from './zoom-track';
import type { TimeWindow } from '@/lib/client/run-view/time-window';

/** Which vendor and model produced each turn, on the waterfall's time axis (takeover blue). */
export function VendorLane({ domain, window, nowTs }: { domain: number; window: TimeWindow; nowTs: number }) {
  const segments = parseVendorLane(useRunStore(selectVendorLane), nowTs);
  if (segments.length === 0) return null;
  return (
    <div className="flex" data-testid="vendor-lane">
      <div className="w-28 shrink-0 text-2xs text-faint">vendor</div>
      <ZoomTrack window={window} domain={domain} className="h-4">
        {segments.map((s, i) => {
          const turns = s.fromTurn === s.toTurn ? `turn ${s.fromTurn}` : `turns ${s.fromTurn}–${s.toTurn}`;
          return (
            <div
              key={`${s.fromTurn}-${s.vendor}-${s.model}`}
              data-testid="vendor-segment"
              data-vendor={s.vendor}
              title={`${turns}: ${s.vendor}/${s.model} (${formatMs(s.startTs)} – ${formatMs(s.endTs)})`}
              className={`absolute inset-y-0 overflow-hidden rounded-sm border border-takeover px-1 font-mono text-2xs leading-4 whitespace-nowrap text-takeover ${i % 2 === 0 ? 'bg-takeover-soft' : 'bg-takeover/25'}`}
              style={{ left: pct(s.startTs, domain), width: pctWidth(s.startTs, s.endTs, domain) }}
            >
              {s.vendor}/{s.model}
            </div>
          );
        })}
      </ZoomTrack>
    </div>
  );
}
