import type { CreateSweepRequestInput, PresetId, SweepMechanism, SweepVendor, Vendor } from '@/lib/protocol';
import { PRESET_LABELS } from '@/lib/protocol/presets';
import { faultPlanFor, FAULT_TOGGLES } from './fault-catalog';

/** What the sweep form holds: choices a person ticks, turned into a grid on submit. */
export interface SweepFormState {
  name: string;
  scenarios: string[];
  presets: PresetId[];
  mechanismsOff: SweepMechanism[];
  /** 'none' (no faults) and fault-catalog toggle ids: each is one fault plan. */
  faults: string[];
  vendors: SweepVendor[];
  /** A real endpoint beside the simulated vendors (its runs use the real clock). */
  endpoint: SweepEndpointForm;
  /** The model axis, comma-separated ('' = each target's default model). */
  models: string;
  /** The prompt axis: saved prompt-set versions as `name@version`. */
  promptSets: string[];
  /** USD; '' = no cap. */
  costCapUsd: string;
  /** Serve the endpoint's runs from the cassettes of this earlier sweep ('' = call the endpoint). */
  replayFrom: string;
  seedFrom: number;
  seedTo: number;
}

export interface SweepEndpointForm {
  enabled: boolean;
  /** A real vendor (endpointVendors()). */
  vendor: Vendor;
  baseUrl: string;
  /** Sent with the sweep, held in the server's memory for it only; '' = the server's environment key. */
  apiKey: string;
  requestsPerMin: string;
  tokensPerMin: string;
}

export const INITIAL_SWEEP_FORM: SweepFormState = {
  name: '',
  scenarios: ['fix-failing-test'],
  presets: ['codesmith', 'naive'],
  mechanismsOff: [],
  faults: ['none', 'overloaded-x3'],
  vendors: ['sim-anthropic'],
  endpoint: {
    enabled: false,
    vendor: 'openai-compatible',
    baseUrl: '',
    apiKey: '',
    requestsPerMin: '50',
    tokensPerMin: '',
  },
  models: '',
  promptSets: [],
  costCapUsd: '',
  replayFrom: '',
  seedFrom: 1,
  seedTo: 20,
};

const listOf = (text: string): string[] =>
  text
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);

/** A positive number from a field, or undefined when it is empty or not one. */
const numberOf = (text: string): number | undefined => {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
};

/** How many runs the form's grid makes (shown before starting). */
export function formRunCount(form: SweepFormState): number {
  const seeds = Math.max(0, form.seedTo - form.seedFrom + 1);
  const targets = form.vendors.length + (form.endpoint.enabled ? 1 : 0);
  const models = Math.max(1, listOf(form.models).length);
  const prompts = Math.max(1, form.promptSets.length);
  return (
    form.scenarios.length *
    form.presets.length *
    (1 + form.mechanismsOff.length) *
    form.faults.length *
    targets *
    models *
    prompts *
    seeds
  );
}

/** The grid the form describes: each preset a configuration, each fault choice a fault plan. */
export function gridFromForm(form: SweepFormState): CreateSweepRequestInput {
  const e = form.endpoint;
  const models = listOf(form.models);
  const requestsPerMin = numberOf(e.requestsPerMin);
  const tokensPerMin = numberOf(e.tokensPerMin);
  const cap = numberOf(form.costCapUsd);
  const key = e.apiKey.trim();
  return {
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    scenarios: form.scenarios,
    configurations: form.presets.map((preset) => ({ id: preset, label: PRESET_LABELS[preset], preset })),
    mechanismsOff: form.mechanismsOff,
    faultPlans: form.faults.map((id) => {
      if (id === 'none') return { id: 'none', label: 'no faults', plan: { rules: [], tools: [] } };
      const toggle = FAULT_TOGGLES.find((t) => t.id === id);
      return { id, label: toggle?.label ?? id, plan: faultPlanFor([id]) };
    }),
    vendors: form.vendors,
    ...(e.enabled
      ? {
          endpoints: [
            {
              id: 'endpoint',
              vendor: e.vendor,
              ...(e.baseUrl.trim() ? { baseUrl: e.baseUrl.trim() } : {}),
              keySource: key ? 'request' : 'env',
              ...(requestsPerMin ? { requestsPerMin: Math.round(requestsPerMin) } : {}),
              ...(tokensPerMin ? { tokensPerMin: Math.round(tokensPerMin) } : {}),
            },
          ],
          ...(key ? { apiKeys: { endpoint: key } } : {}),
        }
      : {}),
    ...(models.length > 0 ? { models } : {}),
    ...(form.promptSets.length > 0
      ? {
          promptSets: form.promptSets.map((ref) => {
            const at = ref.lastIndexOf('@');
            return { name: ref.slice(0, at), version: Number(ref.slice(at + 1)) };
          }),
        }
      : {}),
    ...(cap ? { costCapUsd: cap } : {}),
    ...(form.replayFrom.trim() ? { replayFrom: form.replayFrom.trim() } : {}),
    seeds: { from: form.seedFrom, to: form.seedTo },
  };
}
