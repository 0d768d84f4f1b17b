import { isPriced, modelsOf } from '@/lib/protocol/models';
import { needsBaseUrl, vendorDefaults, vendorRows, type Vendor } from '@/lib/protocol/vendors';

/** A real vendor: what the key & endpoint dialog (and a fork onto a real endpoint) offers. */
export type EndpointVendor = Vendor;

/** The real vendors of the vendor table, in its order. */
export function endpointVendors(): readonly EndpointVendor[] {
  return vendorRows().flatMap((row) => (row.simulated ? [] : [row.id]));
}

/** Known OpenAI-compatible servers: where they listen by default, and a model to start from. */
export interface EndpointPreset {
  id: 'ollama' | 'vllm' | 'llamacpp' | 'deepseek';
  label: string;
  baseUrl: string;
  model: string;
}

export const ENDPOINT_PRESETS: readonly EndpointPreset[] = [
  { id: 'ollama', label: 'Ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' },
  { id: 'vllm', label: 'vLLM', baseUrl: 'http://localhost:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct' },
  { id: 'llamacpp', label: 'llama.cpp server', baseUrl: 'http://localhost:8080/v1', model: 'local-model' },
  { id: 'deepseek', label: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat' },
];

/** What the dialog edits: where the run goes. The key is held apart (useEndpointKey), never in a form. */
export interface EndpointDraft {
  vendor: EndpointVendor;
  baseUrl: string;
  model: string;
}

export function draftFor(vendor: EndpointVendor): EndpointDraft {
  return { vendor, baseUrl: '', model: vendorDefaults(vendor).model };
}

export function applyPreset(draft: EndpointDraft, preset: EndpointPreset): EndpointDraft {
  return { ...draft, vendor: 'openai-compatible', baseUrl: preset.baseUrl, model: preset.model };
}

/** Models to suggest for free-text entry (the ones Loop Lab knows and prices). */
export function suggestedModels(vendor: EndpointVendor): string[] {
  return modelsOf(vendor).map((m) => m.id);
}

/** An unknown model runs, and shows its tokens with no invented cost. */
export function priceNote(model: string): string | undefined {
  const id = model.trim();
  if (!id) return undefined;
  return isPriced(id) ? undefined : 'not priced: tokens are shown, no cost is invented';
}

/** The playground fields the draft sets (vendor, model, base URL only where the vendor takes one). */
export function endpointPatch(draft: EndpointDraft): { vendor: Vendor; model: string; baseUrl: string } {
  return {
    vendor: draft.vendor,
    model: draft.model.trim(),
    baseUrl: needsBaseUrl(draft.vendor) ? draft.baseUrl.trim() : '',
  };
}
