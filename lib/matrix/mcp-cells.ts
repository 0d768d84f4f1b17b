import { execFileSync } from 'node:child_process';
import { findContradictions } from '@/lib/run-view/explain/why-claims';
import type { EventOf, McpFault, RunEvent } from '@/lib/protocol';
import type { MatrixVendor } from './baseline';
import { MATRIX_VENDORS } from './cells';
import { runGuarded } from './run-guarded';

/**
 * MCP tool servers in the matrix: the shipped server (a real process) with each transport fault
 * on its second call, on every vendor, with the recovery on (the defaults) and off (no reconnect,
 * no re-list). The promise is read from the setting: the client's decisions about the server in
 * order (each `mechanism_decision` of `mcp:ws`, `decision→next`). Every cell: no hang, a log that
 * ends with terminate and not `internal_error`, no why line its own later events contradict, and
 * no server process left once the run ended.
 */

export const MCP_FAULTS = [
  { fault: 'crash', transport: 'stdio' },
  { fault: 'crash', transport: 'http' },
  { fault: 'hang', transport: 'stdio' },
  { fault: 'malformed', transport: 'stdio' },
  { fault: 'session_expired', transport: 'http' },
  { fault: 'list_changed', transport: 'stdio' },
  { fault: 'is_error', transport: 'stdio' },
] as const satisfies readonly { fault: McpFault['kind']; transport: 'stdio' | 'http' }[];

export const MCP_GUARD_MS = 120_000;
const SEED = 1;

export interface McpSetting {
  label: string;
  recovery: { reconnect: boolean; relist: boolean };
}

export const MCP_SETTINGS: readonly McpSetting[] = [
  { label: 'recovery on', recovery: { reconnect: true, relist: true } },
  { label: 'reconnect and re-list off', recovery: { reconnect: false, relist: false } },
];

export interface McpCell {
  vendor: MatrixVendor;
  fault: (typeof MCP_FAULTS)[number];
  setting: McpSetting;
  /** The client's decisions about the server, in order (`decision→next`). */
  promise: { steps: string[] };
}

function promiseFor(fault: McpCell['fault'], setting: McpSetting): McpCell['promise'] {
  const { reconnect, relist } = setting.recovery;
  const back = ['reconnect→connect', 'reconnected→relist', 'relisted→go_on'];
  const lost = (decision: string): string[] =>
    reconnect ? [`${decision}→reconnect`, ...back] : [`${decision}→gone`, 'gone→surface'];
  const steps = ((): string[] => {
    switch (fault.fault) {
      case 'crash':
        return lost('crashed');
      case 'malformed':
        return lost('malformed');
      case 'session_expired':
        return lost('session_expired');
      case 'hang':
        return ['hung→surface'];
      case 'list_changed':
        return relist ? ['list_changed→relist', 'relisted→go_on'] : ['list_changed→go_on'];
      case 'is_error':
        return ['is_error→surface'];
    }
  })();
  return { steps: ['connected→go_on', ...steps] };
}

export function mcpCells(vendors: readonly MatrixVendor[] = MATRIX_VENDORS): McpCell[] {
  return vendors.flatMap((vendor) =>
    MCP_FAULTS.flatMap((fault) =>
      MCP_SETTINGS.map((setting) => ({ vendor, fault, setting, promise: promiseFor(fault, setting) })),
    ),
  );
}

export interface McpResult {
  cell: McpCell;
  failures: string[];
  wallMs: number;
}

/** The shipped server's processes this process started and that still run. */
export function serverProcessesLeft(): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes('workspace-server-main.ts'))
    .filter((line) => Number(line.trim().split(/\s+/)[1]) === process.pid);
}

/** Runs one cell through the real runtime and says where it broke its promise (empty: kept). */
export async function runMcpCell(cell: McpCell, options: { guardMs: number }): Promise<McpResult> {
  const run = await runGuarded({
    guardMs: options.guardMs,
    runId: `matrix-mcp-${cell.vendor}-${cell.fault.fault}-${cell.fault.transport}-${cell.setting.label}`,
    config: {
      provider: { vendor: cell.vendor },
      preset: 'codesmith',
      seed: SEED,
      mcp: {
        servers: [{ name: 'ws', shipped: 'workspace', transport: cell.fault.transport }],
        faults: [
          { id: 'mcp', kind: cell.fault.fault, server: 'ws', onCall: 2, times: 1, remove: 'read_file' },
        ],
        recovery: { ...cell.setting.recovery, maxReconnects: 3, backoffMs: 500, callTimeoutMs: 30_000 },
      },
    },
  });
  return { cell, failures: mcpFailures(cell, run.events, run.hung), wallMs: run.wallMs };
}

function mcpFailures(cell: McpCell, events: RunEvent[], hung: boolean): string[] {
  if (hung) return ['hung: the run did not end within its guard'];
  const failures: string[] = [];
  const end = events.at(-1);
  if (end?.event !== 'terminate') return ['the log does not end with terminate'];
  if (end.reason === 'internal_error') failures.push(`ended internal_error: ${end.message ?? ''}`);
  const steps = events
    .filter((e): e is EventOf<'mechanism_decision'> => e.event === 'mechanism_decision')
    .filter((e) => e.mechanism === 'mcp:ws')
    .map((e) => `${e.decision}→${e.next}`);
  if (JSON.stringify(steps) !== JSON.stringify(cell.promise.steps))
    failures.push(
      `mcp:ws decisions ${JSON.stringify(steps)}, promised ${JSON.stringify(cell.promise.steps)}`,
    );
  for (const c of findContradictions(events))
    failures.push(`why line of ${c.event} #${c.seq} says ${c.claim}`);
  const left = serverProcessesLeft();
  if (left.length > 0) failures.push(`server processes left: ${left.join('; ')}`);
  return failures;
}
