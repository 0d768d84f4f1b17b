import { describe, expect, it } from 'vitest';
import { createToolbox, TOOL_NAMES } from './registry';
import { fixFailingTest } from './scenarios/fix-failing-test';

describe('createToolbox', () => {
  const toolbox = createToolbox({ scenario: fixFailingTest });

  it('holds the six tools', () => {
    expect(toolbox.names()).toEqual([
      'list_files',
      'read_file',
      'search',
      'edit_file',
      'write_file',
      'run_check',
    ]);
    expect(toolbox.get('read_file')?.name).toBe('read_file');
    expect(toolbox.get('nope')).toBeUndefined();
    expect(toolbox.names()).toEqual([...TOOL_NAMES]);
  });

  it('replaces the descriptions it is given and keeps the rest, behaviour and schema alike', () => {
    const own = createToolbox({
      scenario: fixFailingTest,
      descriptions: { search: 'Find text. Prefer this over reading every file.' },
    });
    const search = own.specs().find((s) => s.name === 'search')!;
    expect(search.description).toBe('Find text. Prefer this over reading every file.');
    expect(search.inputSchema).toEqual(toolbox.specs().find((s) => s.name === 'search')!.inputSchema);
    expect(own.specs().find((s) => s.name === 'read_file')!.description).toBe(
      toolbox.get('read_file')!.description,
    );
    expect(own.get('search')!.run).toBe(toolbox.get('search')!.run);
  });

  it('gives vendor-safe JSON Schemas: type, properties, required, nothing else', () => {
    const read = toolbox.specs().find((s) => s.name === 'read_file')!;
    expect(Object.keys(read.inputSchema).sort()).toEqual(['properties', 'required', 'type']);
    expect(read.inputSchema.type).toBe('object');
    expect(read.inputSchema.required).toEqual(['path']);
    expect(read.inputSchema.properties).toMatchObject({
      path: { type: 'string' },
      offset: { type: 'integer', minimum: 1 },
    });
    const check = toolbox.specs().find((s) => s.name === 'run_check')!;
    expect(check.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(JSON.stringify(toolbox.specs())).not.toMatch(/\$schema|additionalProperties/);
  });
});
