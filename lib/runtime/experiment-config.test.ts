import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT, RunConfigSchema, type Vendor } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { validateRunConfig } from './validate-config';

/** What the playground's prompt fields change, seen where it counts: in the request the vendor receives. */
async function requestsOf(vendor: Vendor, input: Parameters<typeof runToEnd>[0]) {
  const bodies: Array<Record<string, unknown>> = [];
  const events = await runToEnd(
    { provider: { vendor }, ...input },
    {
      onVendorRequest: ({ body }) => bodies.push(JSON.parse(body) as Record<string, unknown>),
    },
  );
  return { bodies, events };
}

function systemOf(vendor: Vendor, body: Record<string, unknown>): unknown {
  // Anthropic's system prompt may come as text blocks (a cache breakpoint marks the last): their text joined.
  if (vendor === 'sim-anthropic')
    return Array.isArray(body.system)
      ? (body.system as Array<{ text: string }>).map((b) => b.text).join('')
      : body.system;
  const first = (body.messages as Array<{ role: string; content: unknown }>)[0]!;
  return first.role === 'system' ? first.content : undefined;
}

function toolDescription(vendor: Vendor, body: Record<string, unknown>, name: string): unknown {
  const tools = (body.tools ?? []) as Array<Record<string, unknown>>;
  if (vendor === 'sim-anthropic') return tools.find((t) => t.name === name)?.description;
  const fn = tools
    .map((t) => t.function as { name: string; description: string })
    .find((f) => f.name === name);
  return fn?.description;
}

describe.each(['sim-anthropic', 'sim-openai'] as const)('the experimentation fields reach %s', (vendor) => {
  it('a changed system prompt and tool description are what every foreground request carries', async () => {
    const system = 'You are terse. Read before you edit; run the check last.';
    const description = 'Search the project for a text. Use it before reading files one by one.';
    const { bodies, events } = await requestsOf(vendor, {
      system,
      toolDescriptions: { search: description },
    });
    const foreground = bodies.filter((b) => Array.isArray(b.tools) && (b.tools as unknown[]).length > 0);
    expect(foreground.length).toBeGreaterThanOrEqual(3);
    for (const body of foreground) {
      expect(systemOf(vendor, body)).toBe(system);
      expect(toolDescription(vendor, body, 'search')).toBe(description);
      // Tools not named keep their own description.
      expect(toolDescription(vendor, body, 'read_file')).toMatch(/read/i);
    }
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('without a system prompt the built-in one is sent', async () => {
    const { bodies } = await requestsOf(vendor, {});
    expect(systemOf(vendor, bodies[0]!)).toBe(DEFAULT_SYSTEM_PROMPT);
  });

  it('the output cap is the max_tokens of every foreground request', async () => {
    const { events } = await requestsOf(vendor, { maxOutputTokens: 2_000 });
    const fg = ofType(events, 'model_request').filter((r) => !r.background);
    expect(fg.length).toBeGreaterThan(0);
    expect(new Set(fg.map((r) => r.max_tokens))).toEqual(new Set([2_000]));
  });
});

describe('budgets from the playground', () => {
  it('a cost budget stops the run once the spend reaches it', async () => {
    const full = terminateOf(await runToEnd({}));
    expect(full.reason).toBe('end_turn');
    const cap = full.usd_so_far / 3;
    const events = await runToEnd({ budgets: { maxIterations: 30, maxCostUsd: cap } });
    const end = terminateOf(events);
    expect(end).toMatchObject({ reason: 'cost_budget', complete: false });
    expect(end.usd_so_far).toBeGreaterThanOrEqual(cap);
    expect(end.usd_so_far).toBeLessThan(full.usd_so_far);
  });
});

describe('validateRunConfig on tool descriptions', () => {
  it('names a tool that does not exist and lists the real ones', () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-anthropic' },
      toolDescriptions: { grep: 'find text' },
    });
    expect(validateRunConfig({ config })).toEqual([
      'toolDescriptions.grep: no such tool; the tools are list_files, read_file, search, edit_file, write_file, run_check',
    ]);
  });

  it('refuses an empty description at the schema', () => {
    const parsed = RunConfigSchema.safeParse({
      provider: { vendor: 'sim-anthropic' },
      toolDescriptions: { search: '  ' },
    });
    expect(parsed.success).toBe(false);
  });
});
