import { describe, expect, it } from 'vitest';
import { createToolbox } from './registry';
import { fixFailingTest } from './scenarios/fix-failing-test';

describe('createToolbox', () => {
  const toolbox = createToolbox({ scenario: fixFailingTest });

  it('holds the six tools', () => {
    expect(toolbox.names()).toEqual(['list_files', 'read_file', 'search', 'edit_file', 'write_file', 'run_check']);
    expect(toolbox.get('read_file')?.name).toBe('read_file');
    expect(toolbox.get('nope')).toBeUndefined();
  });

  it('gives vendor-safe JSON Schemas: type, properties, required, nothing else', () => {
    const read = toolbox.specs().find((s) => s.name === 'read_file')!;
    expect(Object.keys(read.inputSchema).sort()).toEqual(['properties', 'required', 'type']);
    expect(read.inputSchema.type).toBe('object');
    expect(read.inputSchema.required).toEqual(['path']);
    expect(read.inputSchema.properties).toMatchObject({ path: { type: 'string' }, offset: { type: 'integer', minimum: 1 } });
    const check = toolbox.specs().find((s) => s.name === 'run_check')!;
    expect(check.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(JSON.stringify(toolbox.specs())).not.toMatch(/\$schema|additionalProperties/);
  });
});
