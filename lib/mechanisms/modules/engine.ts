import type { MechanismModule } from '@/lib/engine/mechanism-port';
import { ENGINE as interruptedRepair } from '@/lib/mechanisms/interrupted-repair/engine';
import { ENGINE as parallelToolCalls } from '@/lib/mechanisms/parallel-tool-calls/engine';
import { ENGINE as structuredAnswer } from '@/lib/mechanisms/structured-answer/engine';
import { ENGINE as subagents } from '@/lib/mechanisms/subagents/engine';

/**
 * The mechanism modules on the engine's port, in the order they are asked at each point
 * (lib/engine/mechanism-port.ts). Every run registers these; a strategy loaded from a file
 * comes after them. A module is one folder under lib/mechanisms/.
 */
export const ENGINE_MODULES: readonly MechanismModule<never>[] = [
  parallelToolCalls as MechanismModule<never>,
  interruptedRepair as MechanismModule<never>,
  structuredAnswer as MechanismModule<never>,
  subagents as MechanismModule<never>,
];
