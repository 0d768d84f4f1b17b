import {
  isSimulated,
  VendorSchema,
  type ForkSpec,
  type RunConfig,
  type RunEvent,
  type Vendor,
} from '@/lib/protocol';
import { trajectoryFromLog, type LoggedTrajectory } from '@/lib/trajectory';
import { forkFaults, type ForkFaults } from './fork-faults';

/** What launchRun needs to start a run from a parent's trajectory (LaunchOptions.fork). */
export interface ForkStart {
  parentRunId: string;
  atTurn: number;
  trajectory: LoggedTrajectory;
  /** Where the fork takes up the parent's fault plan (the plan itself is the child config's). */
  faults: ForkFaults;
}

export type ForkPlan =
  { ok: true; config: RunConfig; fork: ForkStart } | { ok: false; status: 400 | 404; problems: string[] };

/**
 * Turns a fork request into the child's config and starting point: the parent's config
 * (seed included) moved to the chosen vendor, model and address, planned swaps the copied turns
 * already passed left out, the fault plan as it stood at turn k (toggles switched during the
 * copied turns included) with how far it had gone, and the parent's trajectory up to turn k
 * rebuilt from its log.
 * Problems name the `fork.*` field and say what to do.
 */
export function planFork(options: {
  spec: ForkSpec;
  parent: { config: RunConfig; running: boolean } | undefined;
  events: readonly RunEvent[];
  /** Whether the fork request came with its own key (the child's keySource says where its key came from). */
  keySent?: boolean;
}): ForkPlan {
  const { spec, parent, events } = options;
  if (!parent)
    return {
      ok: false,
      status: 404,
      problems: [`fork.runId: no run with id "${spec.runId}"; fork a run from the runs list`],
    };
  const lastTurn = events.reduce((n, e) => (e.event === 'iteration_start' ? Math.max(n, e.iteration) : n), 0);
  if (parent.running && spec.atTurn >= lastTurn) {
    return {
      ok: false,
      status: 400,
      problems: [
        `fork.atTurn: run ${spec.runId} is still running turn ${lastTurn}; fork at an earlier turn (1 to ${lastTurn - 1}) or when it has finished`,
      ],
    };
  }
  const rebuilt = trajectoryFromLog(events, spec.atTurn);
  if (!rebuilt.ok) return { ok: false, status: 400, problems: [`fork.atTurn: ${rebuilt.problem}`] };
  const { trajectory } = rebuilt;
  const faults = forkFaults({ config: parent.config, copied: trajectory.events, atTurn: spec.atTurn });

  const was = VendorSchema.safeParse(trajectory.vendor);
  const vendor: Vendor | undefined = spec.provider ?? (was.success ? was.data : undefined);
  if (!vendor) {
    return {
      ok: false,
      status: 400,
      problems: [
        `fork.provider: the parent was on "${trajectory.vendor}", which cannot run here; choose a provider`,
      ],
    };
  }
  const sameVendor = vendor === trajectory.vendor;
  const model = spec.model || (sameVendor ? trajectory.model : '');
  const keepsAddress = vendor === parent.config.provider.vendor;
  const { baseUrl: _dropped, ...provider } = parent.config.provider;
  const baseUrl = spec.baseUrl || (keepsAddress ? parent.config.provider.baseUrl : undefined);
  const recovery = { ...parent.config.recovery };
  if (!keepsAddress && recovery.fallback?.model) {
    // The parent's fallback model belongs to its own vendor.
    const { model: _model, ...fallback } = recovery.fallback;
    recovery.fallback = fallback;
  }
  const config: RunConfig = {
    ...parent.config,
    provider: {
      ...provider,
      vendor,
      model,
      keySource: options.keySent ? 'request' : 'env',
      ...(baseUrl ? { baseUrl } : {}),
    },
    recovery,
    // Real network time cannot jump: a virtual- or paced-clock parent's fork onto a real vendor runs on the real clock.
    ...(parent.config.clock !== 'real' && !isSimulated(vendor) ? { clock: 'real' as const } : {}),
    swaps: parent.config.swaps.filter((s) => s.atTurn > spec.atTurn),
    faults: faults.plan,
  };
  if (config.policy && !isSimulated(vendor)) delete config.policy;
  return { ok: true, config, fork: { parentRunId: spec.runId, atTurn: spec.atTurn, trajectory, faults } };
}
