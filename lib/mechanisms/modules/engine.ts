import type { MechanismModule, SimulatedBehaviour } from '@/lib/engine/mechanism-port';
import type { ModuleMatrixRows } from '@/lib/mechanisms/module';
import * as injectionGuard from '@/lib/mechanisms/injection-guard/engine';
import { MATRIX as injectionGuardMatrix } from '@/lib/mechanisms/injection-guard/matrix';
import { ENGINE as interruptedRepair } from '@/lib/mechanisms/interrupted-repair/engine';
import { ENGINE as parallelToolCalls } from '@/lib/mechanisms/parallel-tool-calls/engine';
import { ENGINE as structuredAnswer } from '@/lib/mechanisms/structured-answer/engine';
import { ENGINE as subagents, MATRIX as subagentRows } from '@/lib/mechanisms/subagents/engine';

/**
 * The mechanism modules on the engine's port, in the order they are asked at each point
 * (lib/engine/mechanism-port.ts). Every run registers these; a strategy loaded from a file
 * comes after them. A module is one folder under lib/mechanisms/.
 */
export const ENGINE_MODULES: readonly MechanismModule<never>[] = [
  parallelToolCalls as MechanismModule<never>,
  interruptedRepair as MechanismModule<never>,
  structuredAnswer as MechanismModule<never>,
  injectionGuard.ENGINE as MechanismModule<never>,
  subagents as MechanismModule<never>,
];

/**
 * Behaviours modules add to the simulated model (a fault a module brings needs a model that
 * falls for it): lib/runtime wraps each run's simulated policy in them, in this order.
 */
export const MODULE_SIM_BEHAVIOURS: readonly SimulatedBehaviour[] = [injectionGuard.SIM];

/** The modules' row sets in the fault matrix (lib/matrix/module-cells.ts runs them, `npm run matrix` prints them). */
export const MODULE_MATRIX: readonly ModuleMatrixRows[] = [injectionGuardMatrix, subagentRows];
