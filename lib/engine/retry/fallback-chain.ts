import { findModel, formatMs, type ErrorCategory, type RetryPolicy } from '@/lib/protocol';
import type { ProviderBinding, RunBinding } from '../binding';
import type { EngineDeps } from '../engine-deps';

/**
 * The retry policy's model moves, between two attempts of a call: the fallback chain (after
 * consecutive overloads the call moves to the next model of the chain, for good), the per-model
 * cooldown (a model that fails N attempts in a row is skipped for C seconds of the run's clock,
 * and comes back when they have passed), and the context-window fallback (on an overflow, the
 * run moves once to a named larger-window model before the context channel compacts anything).
 * Each move is an event with its reason, written here where it is decided. Run state: one per run.
 */
export interface FallbackChainState {
  /** The run's own model and vendor, where the chain starts (the binding at the run's first call). */
  origin: { vendor: string; model: string };
  /** Each model's failed attempts in a row, and the run-clock time its cooldown ends. */
  failures: Map<string, number>;
  cooledUntil: Map<string, number>;
  /** The context-window fallback has been used (once per run). */
  contextMoved: boolean;
}

export function createFallbackChainState(binding: RunBinding): FallbackChainState {
  return {
    origin: { vendor: binding.provider.vendor, model: binding.model },
    failures: new Map(),
    cooledUntil: new Map(),
    contextMoved: false,
  };
}

export interface ChainOptions extends Pick<EngineDeps, 'clock' | 'emit'> {
  binding: RunBinding;
  policy: RetryPolicy;
  state: FallbackChainState;
  /** The run's overload streak (the call state's: a swap resets it too). */
  streak: { consecutiveOverloads: number };
  iteration: number;
  /** Cross-vendor: the composition root makes the swap (an event) and hands back the binding. */
  rebind?: (target: { vendor: string; model: string; reason: string }) => ProviderBinding | undefined;
}

/** The chain in order: the run's own model, then the policy's (a model without a vendor is on the vendor in force). */
function order(options: ChainOptions): Array<{ vendor: string; model: string }> {
  return [
    options.state.origin,
    ...options.policy.fallback.chain.map((m) => ({
      vendor: m.vendor || options.binding.provider.vendor,
      model: m.model,
    })),
  ];
}

/** Where the model in force stands in the chain (0 when it is not in it: the run's own, or a swap's). */
function position(options: ChainOptions, chain: Array<{ vendor: string; model: string }>): number {
  const { binding } = options;
  for (let index = chain.length - 1; index > 0; index--) {
    const entry = chain[index]!;
    if (modelOf(options, entry) === binding.model && entry.vendor === binding.provider.vendor) return index;
  }
  return 0;
}

/**
 * Moves the binding to a model of the chain; false when it cannot (the same model, or no
 * model named). The same vendor changes only the model (a `fallback` event); another vendor
 * goes through `rebind`, or, when the run cannot swap vendors, stays on its own with the model.
 */
function moveTo(
  options: ChainOptions,
  target: { vendor: string; model: string },
  reason: string,
  cause?: 'cooldown' | 'context_window',
): boolean {
  const { binding, emit, iteration } = options;
  if (target.vendor !== binding.provider.vendor && options.rebind) {
    const next = options.rebind({ vendor: target.vendor, model: target.model, reason });
    if (!next) return false;
    binding.swap(next);
    return true;
  }
  const model = target.model || binding.fallbackModel;
  if (!model || model === binding.model) return false;
  emit({
    event: 'fallback',
    iteration,
    from_model: binding.model,
    to_model: model,
    reason,
    ...(cause ? { cause } : {}),
  });
  binding.useModel(model);
  return true;
}

/** The model a chain entry names on the binding in force ('' is the vendor's fallback). */
function modelOf(options: ChainOptions, entry: { vendor: string; model: string }): string {
  return entry.model || options.binding.fallbackModel;
}

/**
 * After a failed attempt: counts the overload streak and the model's failures. At the policy's
 * overload threshold the call moves to the next model of the chain (a degrade rung); at the
 * cooldown threshold the model is cooled down and the call moves to the next model not cooling.
 * Returns whether the call moved.
 */
export function noteFailure(options: ChainOptions, category: ErrorCategory): boolean {
  const { state, policy, clock, emit, iteration, binding, streak } = options;
  const { fallback } = policy;
  const failed = binding.model;
  state.failures.set(failed, (state.failures.get(failed) ?? 0) + 1);
  if (category !== 'overloaded') streak.consecutiveOverloads = 0;
  else streak.consecutiveOverloads += 1;
  if (!fallback.enabled) return false;

  const chain = order(options);
  const cooldown = fallback.cooldown;
  if (cooldown && (state.failures.get(failed) ?? 0) >= cooldown.afterFailures) {
    const until = clock.now() + cooldown.seconds * 1000;
    state.cooledUntil.set(failed, until);
    state.failures.set(failed, 0);
    const next =
      firstAvailable(options, chain, position(options, chain) + 1, failed) ??
      firstAvailable(options, chain, 0, failed);
    emit({
      event: 'model_cooldown',
      iteration,
      phase: 'start',
      model: failed,
      until_ms: until,
      reason: `${failed} failed ${cooldown.afterFailures} attempts in a row: skipped for ${formatMs(cooldown.seconds * 1000)} of run time${next ? `; the call goes on with ${modelOf(options, next.entry)}` : '; no other model of the chain is free, so the call stays on it'}`,
    });
    if (
      next &&
      moveTo(
        options,
        next.entry,
        `${failed} cooling down after ${cooldown.afterFailures} failed attempts in a row`,
        'cooldown',
      )
    ) {
      streak.consecutiveOverloads = 0;
      return true;
    }
  }
  if (category !== 'overloaded' || streak.consecutiveOverloads < fallback.afterOverloads) return false;
  const reason = `${streak.consecutiveOverloads} consecutive overloaded errors`;
  const next = firstAvailable(options, chain, position(options, chain) + 1, undefined);
  if (!next || !moveTo(options, next.entry, reason)) return false;
  streak.consecutiveOverloads = 0;
  return true;
}

/** After an attempt that succeeded: the model's failure streak ends. */
export function noteSuccess(state: FallbackChainState, model: string): void {
  state.failures.set(model, 0);
}

/**
 * The first model of the chain from `from` on that is not cooling down, skipping `except`;
 * each model passed over because it is cooling is a `model_cooldown` skip event.
 */
function firstAvailable(
  options: ChainOptions,
  chain: Array<{ vendor: string; model: string }>,
  from: number,
  except: string | undefined,
): { entry: { vendor: string; model: string }; index: number } | undefined {
  const { state, clock, emit, iteration } = options;
  for (let index = from; index < chain.length; index++) {
    const entry = chain[index]!;
    const model = modelOf(options, entry);
    if (model === except) continue;
    const until = state.cooledUntil.get(model);
    if (until !== undefined && until > clock.now()) {
      emit({
        event: 'model_cooldown',
        iteration,
        phase: 'skip',
        model,
        until_ms: until,
        reason: `${model} skipped: cooling down until ${formatMs(until)} of run time (${formatMs(until - clock.now())} left)`,
      });
      continue;
    }
    return { entry, index };
  }
  return undefined;
}

/**
 * Before an attempt: a model earlier in the chain than the one in force whose cooldown has
 * ended takes the call back (its cooldown was a pause, not a verdict). Only with a cooldown in
 * the policy; the overload moves never go back.
 */
export function returnFromCooldown(options: ChainOptions): void {
  const { state, policy, clock, emit, iteration, binding } = options;
  if (!policy.fallback.enabled || !policy.fallback.cooldown) return;
  const chain = order(options);
  const here = position(options, chain);
  for (let index = 0; index < here; index++) {
    const entry = chain[index]!;
    const model = modelOf(options, entry);
    const until = state.cooledUntil.get(model);
    if (until === undefined) continue;
    if (until > clock.now()) continue;
    state.cooledUntil.delete(model);
    emit({
      event: 'model_cooldown',
      iteration,
      phase: 'end',
      model,
      until_ms: until,
      reason: `${model}'s cooldown ended at ${formatMs(until)} of run time: it takes the call back from ${binding.model}`,
    });
    moveTo(options, entry, `${model}'s cooldown ended`, 'cooldown');
    return;
  }
}

/**
 * On a context overflow: the policy's larger-window model takes the run, once, before the
 * context channel compacts anything (a larger window keeps the history whole; a compaction
 * summarises or trims it). Returns the reason when the run moved.
 */
export function contextWindowMove(options: ChainOptions): string | undefined {
  const { state, policy, binding } = options;
  const target = policy.contextWindow;
  if (!target || state.contextMoved) return undefined;
  const vendor = target.vendor || binding.provider.vendor;
  const model = target.model || binding.fallbackModel;
  if (model === binding.model && vendor === binding.provider.vendor) return undefined;
  const from = binding.model;
  const fromWindow = findModel(from)?.contextWindow;
  const toWindow = findModel(model)?.contextWindow;
  const windows =
    fromWindow !== undefined && toWindow !== undefined
      ? ` (window ${fromWindow.toLocaleString('en-US')} → ${toWindow.toLocaleString('en-US')} tokens)`
      : '';
  const reason = `context too long for ${from}: the policy's context-window fallback moves the run to ${model}${windows} before anything is compacted (once per run)`;
  state.contextMoved = true;
  if (!moveTo(options, { vendor, model }, reason, 'context_window')) return undefined;
  return reason;
}
