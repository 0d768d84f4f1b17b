import { MECHANISMS } from '@/lib/mechanisms/mechanisms';
import type {
  McpConfig,
  MechanismId,
  PauseConfig,
  RecoveryConfig,
  TakeoverHandling,
  VerdictConfig,
} from '@/lib/protocol';
import { stableJson } from './run-steps';

/**
 * Is this mechanism already off in a run (its preset or its overrides switched it off)? Then
 * its counterfactual would be the same run again: switching it off changes no field of the
 * recovery the run used (or of its takeover handling, of how its task verdict is judged, of its
 * tool approval, or of its MCP client's recovery: a run without MCP servers has nothing to switch
 * off there).
 */
export function mechanismAlreadyOff(
  run: {
    recovery: RecoveryConfig;
    takeover: TakeoverHandling;
    verdict?: VerdictConfig | undefined;
    pause?: PauseConfig | undefined;
    mcp?: McpConfig | undefined;
  },
  id: MechanismId,
): boolean {
  const off = MECHANISMS[id].off;
  if ('approval' in off) return !run.pause?.approval;
  if ('mcp' in off)
    return !run.mcp || stableJson({ ...run.mcp.recovery, ...off.mcp }) === stableJson(run.mcp.recovery);
  if ('takeover' in off) return stableJson({ ...run.takeover, ...off.takeover }) === stableJson(run.takeover);
  if ('verdict' in off) return (run.verdict?.tests ?? 'shipped') === off.verdict.tests;
  const recovery = run.recovery as unknown as Record<string, unknown>;
  return Object.entries(off.recovery).every(([group, fields]) => {
    const current = recovery[group];
    if (typeof fields !== 'object' || fields === null) return stableJson(fields) === stableJson(current);
    return stableJson({ ...(current as object), ...fields }) === stableJson(current);
  });
}
