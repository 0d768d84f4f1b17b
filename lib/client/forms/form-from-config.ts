import type { RunConfig } from '@/lib/protocol/config';
import { DEFAULT_MAX_RUN_MS } from '@/lib/protocol/config-defaults';
import { answerFormOf } from './answer-form';
import { faultPlanFor, togglesInPlan } from './fault-catalog';
import { DEFAULT_FORM, type PlaygroundForm } from './playground-form';

/**
 * A stored run's config as the playground form ("open in playground"). What the form cannot
 * hold is named in `dropped` so the page can say so instead of silently running something else:
 * faults that are not among the toggles, a base URL, a key.
 */
export function formFromConfig(config: RunConfig): { form: PlaygroundForm; dropped: string[] } {
  const faults = togglesInPlan(config.faults);
  const toolTarget = config.faults.tools.find((t) => t.enabled)?.tool ?? '*';
  const dropped: string[] = [];
  const representable = JSON.stringify(faultPlanFor(faults, toolTarget));
  const enabledOnly = {
    rules: config.faults.rules.filter((r) => r.enabled),
    tools: config.faults.tools.filter((t) => t.enabled),
  };
  if (representable !== JSON.stringify(enabledOnly))
    dropped.push('faults that are not among the playground’s toggles');
  if (!config.answer && (config.faults.answers ?? []).some((f) => f.enabled))
    dropped.push('answer faults (the config asks for no structured answer, so they do nothing)');
  if (config.provider.baseUrl) dropped.push('the base URL');
  if (config.provider.keySource === 'request') dropped.push('the API key (never stored: enter it again)');
  const form: PlaygroundForm = {
    ...DEFAULT_FORM,
    scenario: config.scenario,
    task: config.task ?? '',
    policy: config.policy ?? '',
    vendor: config.provider.vendor,
    model: config.provider.model,
    foreignThinking: config.takeover.foreignThinking,
    naiveTakeover: config.takeover.naive,
    swaps: config.swaps,
    takeoverRulesOff: config.takeover.rulesOff ?? [],
    preset: config.preset,
    overrides: config.recovery,
    faults,
    toolFaultTarget: toolTarget,
    seed: config.seed,
    timeScale: config.timeScale,
    clock: config.clock,
    budgets: {
      maxIterations: config.budgets.maxIterations,
      maxCostUsd: config.budgets.maxCostUsd,
      maxRunMinutes: (config.budgets.maxRunMs ?? DEFAULT_MAX_RUN_MS) / 60_000,
      maxAttempts: config.budgets.maxAttempts,
    },
    system: config.system ?? '',
    toolDescriptions: config.toolDescriptions ?? {},
    maxOutputTokens: config.maxOutputTokens ?? null,
    promptSet: config.promptSet ?? null,
    replay: config.replay ?? null,
    pause: config.pause ?? null,
    answer: answerFormOf(config.answer, config.faults),
  };
  return { form, dropped };
}
