import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attributeOf, OtlpTraceRequestSchema } from '@/lib/otel/otlp-json-schema';

const dir = mkdtempSync(join(tmpdir(), 'loop-lab-otel-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run loop -- --otel-out', () => {
  it('writes the run as OTLP/JSON with GenAI spans', async () => {
    const file = join(dir, 'run.otlp.json');
    const code = await new Promise<number>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'lib/cli/main.ts', '--clock', 'virtual', '--quiet', '--otel-out', file],
        {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test' },
          stdio: 'ignore',
        },
      );
      child.on('close', (c) => resolve(c ?? -1));
    });
    expect(code).toBe(0);
    const request = OtlpTraceRequestSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    const spans = request.resourceSpans[0]!.scopeSpans[0]!.spans;
    const ops = spans.map((s) => attributeOf(s, 'gen_ai.operation.name'));
    expect(ops.filter((o) => o === 'invoke_agent')).toHaveLength(1);
    expect(ops.filter((o) => o === 'chat').length).toBeGreaterThanOrEqual(5);
    expect(ops).toContain('execute_tool');
  }, 120_000);
});
