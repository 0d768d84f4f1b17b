'use client';

import type { ReactNode } from 'react';
import { ContextPanel } from '@/components/context/context-panel';
import { Inspector } from './inspector';
import { RunHeader } from './run-header';
import { TakeoverPanel } from './takeover-panel';
import { TerminateBanner } from './terminate-banner';
import { TurnList } from './turn-list';
import { WatchdogBar } from './watchdog-bar';
import { Waterfall } from './waterfall';
import { useFirstEventMark } from '@/lib/client/hooks/use-first-event-mark';

/**
 * A run, live or finished, drawn from the page's run store: header, watchdog, terminate
 * banner, waterfall, the context and takeover panels, then turn cards beside the inspector.
 * The whole column scrolls, so however tall the panels grow the turn cards keep their room.
 */
export function RunView({ headerActions }: { headerActions?: ReactNode }) {
  useFirstEventMark();
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
      <div className="shrink-0">
        <RunHeader actions={headerActions} />
        <WatchdogBar />
        <TerminateBanner />
        <Waterfall />
        <ContextPanel />
        <TakeoverPanel />
      </div>
      {/* The turns keep at least 60 % of the height: the panels above scroll away, the turns never vanish. */}
      <div className="flex min-h-[60vh] flex-1">
        <div className="min-w-0 flex-1 overflow-y-auto">
          <TurnList />
        </div>
        <Inspector />
      </div>
    </div>
  );
}
