import {
  VENDOR_DEFAULTS,
  isSimulated,
  type PresetId,
  type RecoveryOverrides,
  type RunConfigInput,
  type Vendor,
} from '@/lib/protocol';
import { faultPlanFor } from './fault-catalog';

/** The playground's control panel, as data. The API key lives here in memory only. */
export interface PlaygroundForm {
  scenario: string;
  vendor: Vendor;
  model: string;
  baseUrl: string;
  apiKey: string;
  preset: PresetId;
  overrides: RecoveryOverrides;
  faults: string[];
  seed: number;
  timeScale: number;
  clock: 'real' | 'virtual';
}

export const DEFAULT_FORM: PlaygroundForm = {
  scenario: 'fix-failing-test',
  vendor: 'sim-anthropic',
  model: VENDOR_DEFAULTS['sim-anthropic'].model,
  baseUrl: '',
  apiKey: '',
  preset: 'codesmith',
  overrides: {},
  faults: [],
  seed: 1,
  timeScale: 0.05,
  clock: 'real',
};

export const VENDOR_LABELS: Record<Vendor, string> = {
  'sim-anthropic': 'Simulated Anthropic',
  'sim-openai': 'Simulated OpenAI',
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible',
};

/** The POST /api/runs body. Only recovery overrides are sent, never the whole preset. */
export function buildRunRequest(form: PlaygroundForm): { config: RunConfigInput; apiKey?: string } {
  const apiKey = isSimulated(form.vendor) ? '' : form.apiKey.trim();
  const baseUrl = form.vendor === 'openai-compatible' ? form.baseUrl.trim() : '';
  const config: RunConfigInput = {
    provider: {
      vendor: form.vendor,
      model: form.model.trim(),
      ...(baseUrl ? { baseUrl } : {}),
      keySource: apiKey ? 'request' : 'env',
    },
    scenario: form.scenario,
    preset: form.preset,
    recovery: form.overrides,
    faults: faultPlanFor(form.faults),
    seed: form.seed,
    timeScale: form.timeScale,
    clock: form.clock,
  };
  return apiKey ? { config, apiKey } : { config };
}
