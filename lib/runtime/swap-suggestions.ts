import { dialectFor } from '@/lib/dialects';
import { DEFAULT_SYSTEM_PROMPT, modelsOf, vendorRows, type EventOf, type RunEvent } from '@/lib/protocol';
import type { SwapSuggestion, SwapTargets } from '@/lib/protocol/http';
import { probeSimRequest, type ProbeVerdict } from '@/lib/sim';
import { createToolbox, getScenario } from '@/lib/tools';
import { trajectoryFromLog, type ModelRequest } from '@/lib/trajectory';

/**
 * Which swaps would make a point now: the run's history as of its last turn that can be
 * continued, rendered for every simulated vendor and model — naively (as it was, credentials
 * included) and as the run's takeover handling renders it — each judged by that vendor's own
 * request checks, as the takeover report judges a swap that happened. Naive failures come first:
 * those are the targets where handling the takeover is what keeps the run alive.
 */
export function suggestSwaps(events: readonly RunEvent[]): SwapTargets {
  const start = events.find((e): e is EventOf<'run_start'> => e.event === 'run_start');
  if (!start) return { ok: false, problem: 'the log has no run_start event yet' };
  const { config } = start;
  const turns = events.filter((e) => e.event === 'iteration_start').map((e) => e.iteration);
  let trajectory: ReturnType<typeof trajectoryFromLog> = {
    ok: false,
    problem: 'no turn has finished yet: the history is only the task',
  };
  let atTurn = Math.max(0, ...turns);
  for (; atTurn >= 1; atTurn -= 1) {
    trajectory = trajectoryFromLog(events, atTurn);
    if (trajectory.ok) break;
  }
  if (!trajectory.ok) return { ok: false, problem: trajectory.problem };
  const scenario = getScenario(config.scenario);
  if (!scenario) return { ok: false, problem: `the scenario "${config.scenario}" does not exist here` };
  const tools = createToolbox({
    scenario,
    ...(config.toolDescriptions ? { descriptions: config.toolDescriptions } : {}),
  }).specs();
  const base: Omit<ModelRequest, 'model'> = {
    system: config.system ?? DEFAULT_SYSTEM_PROMPT,
    messages: trajectory.trajectory.messages.map((m) => m.message),
    tools,
    maxTokens: config.maxOutputTokens ?? start.recovery.output.maxTokens,
    thinking: config.provider.thinking,
  };
  const { vendor: from, model: fromModel } = trajectory.trajectory;
  const targets: SwapSuggestion[] = [];
  for (const vendor of vendorRows().flatMap((row) => (row.simulated ? [row.id] : []))) {
    for (const { id: model, maxOutputTokens } of modelsOf(vendor)) {
      if (vendor === from && model === fromModel) continue;
      // Each request asks for the cap within the target model's own output limit, as the engine's do.
      const request: ModelRequest = { ...base, model, maxTokens: Math.min(base.maxTokens, maxOutputTokens) };
      const dialect = dialectFor({ vendor, model });
      const naive = probeSimRequest({
        vendor,
        body: dialect.render({ request, vendor, handling: { ...config.takeover, naive: true } }).params,
      });
      const handledRendering = dialect.render({
        request,
        vendor,
        handling: { ...config.takeover, naive: false },
      });
      const handled = probeSimRequest({ vendor, body: handledRendering.params });
      const kinds = handledRendering.report.dropped.map((d) => d.kind);
      targets.push({
        vendor,
        model,
        ...(naive ? { naive: verdictOf(naive) } : {}),
        ...(handled ? { handled: verdictOf(handled) } : {}),
        dropped: [...new Set(kinds)].map((kind) => `${kinds.filter((k) => k === kind).length} × ${kind}`),
      });
    }
  }
  const rank = (t: SwapSuggestion): number => (t.naive === undefined ? 2 : t.naive.accepted ? 1 : 0);
  targets.sort((a, b) => rank(a) - rank(b));
  return { ok: true, atTurn, vendor: from, model: fromModel, targets };
}

function verdictOf(verdict: ProbeVerdict): NonNullable<SwapSuggestion['naive']> {
  return verdict.accepted
    ? { accepted: true }
    : { accepted: false, status: verdict.status, type: verdict.type, message: verdict.message };
}
