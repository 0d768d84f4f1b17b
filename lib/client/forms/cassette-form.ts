import { missingConfigText } from '@/lib/protocol/cassette-words';
import type { CassetteSummary } from '@/lib/protocol/http';
import { formFromConfig } from './form-from-config';
import type { PlaygroundForm } from './playground-form';

/**
 * What choosing a cassette sets: its vendor and model (a replay speaks the recording's dialect),
 * the replay itself, and — when the cassette keeps the config it was recorded with — everything
 * else the form holds of that config: the scenario, task, prompts, preset and its overrides, seed,
 * clock, budgets, takeover handling and the faults that were on top. A replay asks the recorded
 * questions only with the recorded task and prompts; without them it leaves the recording at
 * the first request. A cassette that does not keep its config changes nothing else.
 */
export function replayPatch(
  cassette: CassetteSummary,
  offRecording: 'stop' | 'simulate',
): Partial<PlaygroundForm> {
  const replay = {
    vendor: cassette.source.vendor,
    model: cassette.source.model,
    replay: { cassette: cassette.id, offRecording },
  };
  if (!cassette.config) return replay;
  const { form } = formFromConfig(cassette.config);
  const { vendor: _vendor, model: _model, baseUrl: _baseUrl, replay: _replay, ...recorded } = form;
  return { ...recorded, ...replay };
}

/** The settings a recording fixes: where the form differs from one of them, the requests differ. */
const ASKED: ReadonlyArray<{ field: keyof PlaygroundForm; name: string }> = [
  { field: 'scenario', name: 'scenario' },
  { field: 'task', name: 'task' },
  { field: 'system', name: 'system prompt' },
  { field: 'toolDescriptions', name: 'tool descriptions' },
  { field: 'preset', name: 'preset' },
  { field: 'overrides', name: 'recovery overrides' },
  { field: 'maxOutputTokens', name: 'output cap' },
];

export type RecordedSettings =
  { kind: 'kept'; filled: string; changed: string[]; dropped: string[] } | { kind: 'missing'; text: string };

/**
 * What the playground says under the chosen cassette: the settings filled in from its recorded
 * config, in words, and which of those that decide the requests the form has changed since; or,
 * for a cassette without its config, what it cannot tell.
 */
export function recordedSettings(form: PlaygroundForm, cassette: CassetteSummary): RecordedSettings {
  if (!cassette.config) return { kind: 'missing', text: missingConfigText(cassette.version) };
  const { form: recorded, dropped } = formFromConfig(cassette.config);
  const task = recorded.task ? `the task “${clip(recorded.task, 80)}”` : 'the scenario’s own task';
  const faults =
    recorded.faults.length > 0
      ? `faults on top when recorded: ${recorded.faults.join(', ')}`
      : 'no faults when recorded';
  const filled = `scenario ${recorded.scenario}, ${task}, ${recorded.system ? 'its own system prompt' : 'the built-in system prompt'}, preset ${recorded.preset}, seed ${recorded.seed}, ${recorded.clock} clock; ${faults}`;
  const changed = ASKED.filter(
    ({ field }) => JSON.stringify(form[field]) !== JSON.stringify(recorded[field]),
  ).map(({ name }) => name);
  return { kind: 'kept', filled, changed, dropped };
}

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
