import { describe, expect, it } from 'vitest';
import {
  ENDPOINT_PRESETS,
  applyPreset,
  draftFor,
  endpointPatch,
  priceNote,
  suggestedModels,
} from './endpoint-form';
import { DEFAULT_FORM, buildRunRequest, type PlaygroundForm } from './playground-form';

const KEY = 'sk-test-endpoint-dialog-0123456789';

describe('the key & endpoint dialog', () => {
  it('presets point an OpenAI-compatible run at the known servers', () => {
    const byId = Object.fromEntries(
      ENDPOINT_PRESETS.map((p) => [p.id, applyPreset(draftFor('anthropic'), p)]),
    );
    expect(byId.ollama).toEqual({
      vendor: 'openai-compatible',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.1',
    });
    expect(byId.vllm?.baseUrl).toBe('http://localhost:8000/v1');
    expect(byId.llamacpp?.baseUrl).toBe('http://localhost:8080/v1');
    expect(byId.deepseek).toMatchObject({ baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat' });
  });

  it('suggests known models, and an unknown model says it is not priced', () => {
    expect(suggestedModels('anthropic')).toContain('claude-haiku-4-5');
    expect(priceNote('claude-haiku-4-5')).toBeUndefined();
    expect(priceNote('deepseek-chat')).toBeUndefined();
    expect(priceNote('llama3.1')).toMatch(/^not priced/);
  });

  it('sets vendor, model and base URL on the form (a base URL only where the vendor takes one)', () => {
    expect(
      endpointPatch({ vendor: 'openai-compatible', baseUrl: ' http://127.0.0.1:9/v1 ', model: ' m ' }),
    ).toEqual({
      vendor: 'openai-compatible',
      model: 'm',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    expect(
      endpointPatch({ vendor: 'anthropic', baseUrl: 'http://left.over/v1', model: 'claude-haiku-4-5' })
        .baseUrl,
    ).toBe('');
  });

  it('the key travels beside the config in the one request, and the form has no place for it', () => {
    const form: PlaygroundForm = {
      ...DEFAULT_FORM,
      ...endpointPatch({ vendor: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
      clock: 'real',
    };
    const body = buildRunRequest(form, `  ${KEY} `);
    expect(body.apiKey).toBe(KEY);
    expect(body.config.provider).toMatchObject({ keySource: 'request', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(JSON.stringify(body.config)).not.toContain(KEY);
    // What the URL and any storage would mirror is the form: the key is not in it.
    expect(Object.keys(DEFAULT_FORM)).not.toContain('apiKey');
    expect(JSON.stringify(form)).not.toContain(KEY);
    // A simulated vendor never carries a key.
    expect(buildRunRequest(DEFAULT_FORM, KEY)).not.toHaveProperty('apiKey');
  });
});
