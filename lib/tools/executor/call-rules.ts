import type { Clock, Random } from '@/lib/clock';
import type { ArgRepairRung, EventBody, RecoveryConfig, ToolCallStatus, ToolFault } from '@/lib/protocol';
import type { SlotShare } from '../check/fair-slots';
import type { Toolbox } from '../registry';
import type { Workspace } from '../types';
import { CheckRate } from './check-rate';
import { FailureBudget } from './failure-budget';
import { LoopGuard } from './loop-guard';
import { activeFaults } from './tool-faults';

/** What one call came to, before its text is truncated and booked. */
export interface Outcome {
  status: ToolCallStatus;
  content: string;
  isError: boolean;
  /** Set when the call's arguments parsed: the key for repeat detection. */
  key?: string;
  args?: Record<string, unknown>;
  /** The repair ladder's rungs that changed the arguments (`args` is then the repaired arguments). */
  repaired?: ArgRepairRung[];
  /** The machine could not do the tool's work: the run ends with this message. */
  hostOverloaded?: string;
}

type GuardKind = 'warning' | 'blocked' | 'short_circuit' | 'disabled' | 'halt' | 'rate_limited';

export interface CallRulesOptions {
  toolbox: Toolbox;
  workspace: Workspace;
  clock: Clock;
  random: Random;
  config: RecoveryConfig['tools'];
  /** Read at every call, so a fault toggled mid-run applies to the next call. */
  faults: () => readonly ToolFault[];
  emit: (body: EventBody) => void;
  /** The run, as the check sandbox's pool knows it (its fair share of slots); a run of its own when absent. */
  share?: SlotShare;
}

/**
 * The executor's rules and what they remember across a run's calls: what deciding and booking a
 * call read.
 */
export interface CallRules {
  toolbox: Toolbox;
  workspace: Workspace;
  clock: Clock;
  random: Random;
  config: RecoveryConfig['tools'];
  emit: (body: EventBody) => void;
  share: SlotShare;
  budget: FailureBudget;
  guard: LoopGuard;
  checkRate: CheckRate;
  /** The faults that hit this call: active for the tool, and a fault with `times` only on its first calls. */
  faultsFor(name: string): ToolFault[];
  emitGuard(
    iteration: number,
    tool: string,
    kind: GuardKind,
    reason: string,
    extra?: { consecutive_failures?: number; budget_left?: number; next?: string },
  ): void;
}

/** A run's rules, as its recovery config switches them, with nothing yet remembered. */
export function createCallRules(options: CallRulesOptions): CallRules {
  const { toolbox, workspace, clock, random, config, faults, emit } = options;
  const faultHits = new Map<string, number>();
  return {
    toolbox,
    workspace,
    clock,
    random,
    config,
    emit,
    share: options.share ?? Symbol('run'),
    budget: new FailureBudget(config.failureBudget, (tool) => toolbox.get(tool)?.budgetKey ?? tool),
    guard: new LoopGuard(config),
    checkRate: new CheckRate(config.checkRateMax, config.checkRateWindowMs),
    faultsFor(name) {
      return activeFaults({ faults: faults(), tool: name }).filter((fault) => {
        if (fault.times === undefined) return true;
        const hits = faultHits.get(fault.id) ?? 0;
        if (hits >= fault.times) return false;
        faultHits.set(fault.id, hits + 1);
        return true;
      });
    },
    emitGuard(iteration, tool, kind, reason, extra = {}) {
      emit({ event: 'tool_guard', iteration, tool, kind, reason, ...extra });
    },
  };
}
