import {
  isSimulated,
  resolveRecovery,
  VendorSchema,
  type EventBody,
  type EventOf,
  type ForkSpec,
  type RunConfig,
  type RunEvent,
  type Vendor,
} from '@/lib/protocol';
import { editMessages, trajectoryFromLog, type LoggedTrajectory } from '@/lib/trajectory';
import { forkFaults, type ForkFaults } from './fork-faults';

/** What launchRun needs to start a run from a parent's trajectory (LaunchOptions.fork). */
export interface ForkStart {
  parentRunId: string;
  atTurn: number;
  trajectory: LoggedTrajectory;
  /** Where the fork takes up the parent's fault plan (the plan itself is the child config's). */
  faults: ForkFaults;
  /**
   * The person's edits of the state at the turn, as the fork_edit events that record them (written
   * after the copied turns); `trajectory.messages` already holds the edited messages.
   */
  edits: EventBody<EventOf<'fork_edit'>>[];
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
  const edited = applyEdits(spec, rebuilt.trajectory, parent.config);
  if (!edited.ok) return { ok: false, status: 400, problems: edited.problems };
  const { trajectory } = edited;
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
    ...(edited.maxOutputTokens !== undefined ? { maxOutputTokens: edited.maxOutputTokens } : {}),
  };
  if (config.policy && !isSimulated(vendor)) delete config.policy;
  return {
    ok: true,
    config,
    fork: { parentRunId: spec.runId, atTurn: spec.atTurn, trajectory, faults, edits: edited.events },
  };
}

type Edited =
  | {
      ok: true;
      trajectory: LoggedTrajectory;
      events: EventBody<EventOf<'fork_edit'>>[];
      maxOutputTokens?: number;
    }
  | { ok: false; problems: string[] };

/**
 * The spec's edits applied in order to the state at the turn: each message edit to the rebuilt
 * messages, a parameter edit to the child's config; each becomes the fork_edit event that records
 * it. Every edit that cannot apply is a problem naming its `fork.edits.N` field.
 */
function applyEdits(spec: ForkSpec, trajectory: LoggedTrajectory, parentConfig: RunConfig): Edited {
  const by = spec.by ?? 'api';
  const next = spec.atTurn + 1;
  let messages = trajectory.messages;
  let maxOutputTokens: number | undefined;
  const events: EventBody<EventOf<'fork_edit'>>[] = [];
  const problems: string[] = [];
  (spec.edits ?? []).forEach((edit, i) => {
    if (edit.kind === 'params') {
      const before =
        maxOutputTokens ??
        parentConfig.maxOutputTokens ??
        resolveRecovery(parentConfig.preset, parentConfig.recovery).output.maxTokens;
      maxOutputTokens = edit.maxOutputTokens;
      events.push({
        event: 'fork_edit',
        iteration: spec.atTurn,
        target: { kind: 'params', field: 'maxOutputTokens' },
        before,
        after: edit.maxOutputTokens,
        by,
        where: 'the output cap of the requests',
        next: `every request of the fork, from turn ${next}, asks for at most ${edit.maxOutputTokens} output tokens (was ${before})`,
      });
      return;
    }
    const result = editMessages(messages, edit);
    if (!result.ok) {
      problems.push(`fork.edits.${i}.${result.problem}`);
      return;
    }
    messages = result.messages;
    events.push({
      event: 'fork_edit',
      iteration: spec.atTurn,
      ...result.edit,
      by,
      next: `the fork's first request (turn ${next}) sends ${result.edit.where} as edited`,
    });
  });
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    trajectory: { ...trajectory, messages },
    events,
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}

/**
 * The fork request that made a forked run, read back from its own log: the parent and turn
 * (forked_from), the vendor and model it went on with when they were not the parent's, and the
 * edits it made (its own fork_edit events, not those copied from a parent that was a fork too).
 * Forking the same parent with it again replays the fork: same config, seed and edits, same log.
 * Undefined for a run that is not a fork.
 */
export function forkSpecOf(events: readonly RunEvent[]): ForkSpec | undefined {
  const link = events.find((e): e is EventOf<'forked_from'> => e.event === 'forked_from');
  const start = events.find((e): e is EventOf<'run_start'> => e.event === 'run_start');
  if (!link || !start) return undefined;
  const own = events.filter(
    (e): e is EventOf<'fork_edit'> => e.event === 'fork_edit' && e.seq > link.seq + link.copied_events,
  );
  const edits = own.map((e): NonNullable<ForkSpec['edits']>[number] => {
    const { target } = e;
    if (target.kind === 'params') return { kind: 'params', maxOutputTokens: Number(e.after) };
    if (target.kind === 'tool_result')
      return {
        kind: 'tool_result',
        callId: target.call_id,
        content: String(e.after),
        ...(e.after_is_error !== undefined ? { isError: e.after_is_error } : {}),
      };
    return { kind: 'message', turn: target.turn, role: target.role, text: String(e.after) };
  });
  const { vendor, model } = start.config.provider;
  const by = own[0]?.by;
  return {
    runId: link.parent_run_id,
    atTurn: link.turn,
    ...(vendor !== link.from_vendor || model !== link.from_model ? { provider: vendor, model } : {}),
    ...(edits.length > 0 ? { edits } : {}),
    ...(by && by !== 'timeout' ? { by } : {}),
  };
}
