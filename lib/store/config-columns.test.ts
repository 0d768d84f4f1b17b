import { describe, expect, it } from 'vitest';
import { describeConfig } from '@/lib/client/explain/describe-config';
import { RunConfigSchema } from '@/lib/protocol';
import { configColumns } from './config-columns';

describe('configColumns', () => {
  it('names faults in the runs list exactly as the run page does', () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-anthropic' },
      faults: {
        rules: [
          {
            id: 'o',
            label: 'overloaded ×3',
            when: { kind: 'requests', numbers: [1, 2, 3] },
            action: { type: 'http_error', status: 529 },
          },
        ],
        tools: [
          { id: 't', tool: '*', kind: 'throw' },
          { id: 's', tool: 'read_file', kind: 'slow', delayMs: 5000 },
          { id: 'off', tool: '*', kind: 'huge', chars: 10, enabled: false },
        ],
      },
    });
    const listed = configColumns(JSON.stringify(config)).faults;
    expect(listed).toEqual(['overloaded ×3', 'tools throw (every tool)', 'tools slow (read_file)']);
    const faultsLine = describeConfig(config).find((line) => line.label === 'faults');
    for (const label of listed) expect(faultsLine?.value).toContain(label);
  });

  it('lists a stored config it cannot read as empty rather than failing the list', () => {
    expect(configColumns('{not json')).toEqual({
      preset: '',
      overrides: [],
      seed: null,
      faults: [],
      prompt_set: null,
    });
  });
});
