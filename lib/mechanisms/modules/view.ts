import { VIEW as injectionGuard } from '@/lib/mechanisms/injection-guard/view';
import { VIEW as interruptedRepair } from '@/lib/mechanisms/interrupted-repair/view';
import type { ModuleEvent } from '@/lib/mechanisms/modules/about';
import { VIEW as parallelToolCalls } from '@/lib/mechanisms/parallel-tool-calls/view';
import { VIEW as structuredAnswer } from '@/lib/mechanisms/structured-answer/view';
import { VIEW as subagents } from '@/lib/mechanisms/subagents/view';
import type { RunViewState } from '@/lib/run-view/run-view-state';

/**
 * How each mechanism module's events fold into the run view (lib/client/run-view reads this
 * list for every module event). A module is one folder under lib/mechanisms/.
 */
const VIEWS: {
  [K in ModuleEvent['event']]: (s: RunViewState, e: Extract<ModuleEvent, { event: K }>) => RunViewState;
} = { ...interruptedRepair, ...parallelToolCalls, ...structuredAnswer, ...injectionGuard, ...subagents };

export function reduceModuleEvent(s: RunViewState, e: ModuleEvent): RunViewState {
  return (VIEWS[e.event] as (s: RunViewState, e: ModuleEvent) => RunViewState)(s, e);
}
