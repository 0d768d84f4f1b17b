import {
  PresetIdSchema,
  resolveRecovery,
  TerminateReasonSchema,
  type FaultAction,
  type PresetId,
} from '@/lib/protocol';
import { firstRequestWith, type Baseline, type MatrixVendor } from './baseline';
import { MATRIX_FAULTS, type MatrixFault } from './fault-kinds';
import {
  CLOSES_TOOL_CALLS_BEFORE_FINAL,
  INJECTION_POINTS,
  POINTS,
  type InjectionPoint,
} from './injection-points';
import { promiseFor, type CellPromise } from './promise-rules';

export const MATRIX_VENDORS: readonly MatrixVendor[] = [
  'sim-anthropic',
  'sim-openai',
  'sim-openai-responses',
];
export const MATRIX_PRESETS: readonly PresetId[] = PresetIdSchema.options;

interface CellBase {
  fault: MatrixFault;
  point: InjectionPoint;
  vendor: MatrixVendor;
  preset: PresetId;
}

/** A combination that runs: its fault, the request it strikes and what it promises. */
export interface RunnableCell extends CellBase {
  status: 'runnable';
  action: FaultAction;
  requestNo: number;
  promise: CellPromise;
}

/** A combination listed but not run, and why: it cannot apply, or its promise needs a part this build lacks. */
export interface SkippedCell extends CellBase {
  status: 'not_applicable' | 'pending';
  why: string;
  promise?: CellPromise;
}

export type Cell = RunnableCell | SkippedCell;

/** Terminate reasons this build's protocol knows; a promise ending in any other waits for it. */
const KNOWN_ENDINGS: ReadonlySet<string> = new Set(TerminateReasonSchema.options);

/**
 * Every fault kind × injection point × vendor × preset, each either runnable with its
 * promise or listed with the reason it is not run. `baselines` holds one unfaulted probe
 * per column (vendor × preset), which says where each content point exists.
 */
export function buildCells(options: { baselines: Baseline[] }): Cell[] {
  const cells: Cell[] = [];
  for (const fault of MATRIX_FAULTS) {
    for (const point of INJECTION_POINTS) {
      for (const vendor of MATRIX_VENDORS) {
        for (const preset of MATRIX_PRESETS) {
          const baseline = options.baselines.find((b) => b.vendor === vendor && b.preset === preset);
          if (!baseline) throw new Error(`no baseline probe for ${vendor} × ${preset}`);
          cells.push(cellFor({ fault, point, vendor, preset, baseline }));
        }
      }
    }
  }
  return cells;
}

function cellFor(base: CellBase & { baseline: Baseline }): Cell {
  const { fault, point, baseline, vendor, preset } = base;
  const cell: CellBase = { fault, point, vendor, preset };
  const placed = fault.at(point);
  if ('notApplicable' in placed) return { ...cell, status: 'not_applicable', why: placed.notApplicable };
  const { needs } = POINTS[point];
  const requestNo = needs ? firstRequestWith(baseline, needs) : 1;
  if (requestNo === undefined) {
    return {
      ...cell,
      status: 'not_applicable',
      why: `no response on ${vendor} streams ${needs!.replace('_', ' ')} content in this scenario`,
    };
  }
  const keptToolCall =
    point === 'final_delta' &&
    CLOSES_TOOL_CALLS_BEFORE_FINAL[vendor] &&
    (baseline.kinds.get(requestNo)?.has('tool_args') ?? false);
  const promise = promiseFor({
    effect: fault.effect,
    point,
    recovery: resolveRecovery(preset),
    keptToolCall,
  });
  if (!KNOWN_ENDINGS.has(promise.ending === 'completes' ? 'end_turn' : promise.ending)) {
    return {
      ...cell,
      status: 'pending',
      promise,
      why: `its promise (${promise.ending}) needs a mechanism this build does not have yet`,
    };
  }
  return { ...cell, status: 'runnable', action: placed.action, requestNo, promise };
}
