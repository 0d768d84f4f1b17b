import { describe, expect, it } from 'vitest';
import { setup } from './executor.testkit';

const LOG =
  Array.from(
    { length: 400 },
    (_, i) => `2025-01-01T00:00:${String(i % 60).padStart(2, '0')} INFO request ${i + 1} served`,
  ).join('\n') + '\n';

describe('executor: output truncation', () => {
  it('cuts a long result with a note, and an offset read returns the rest', async () => {
    const t = setup({ files: { 'app.log': LOG } });
    const first = await t.call('read_file', { path: 'app.log' });
    const text = first.result.content;
    const note =
      /\[TRUNCATED: (\d+) more characters not shown\. Shown up to line (\d+) of 400\. Call read_file with path "app\.log", offset (\d+) and a limit \(e\.g\. 50\) to read on, or use search to find the lines you need\.\]$/.exec(
        text,
      );
    expect(note).not.toBeNull();
    const [, dropped, last, next] = note!.map(Number);
    expect(next).toBe(last! + 1);
    expect(text.length).toBeLessThan(4_000 + 300);
    expect(t.of('tool_call')[0]).toMatchObject({
      truncated_chars: dropped,
      result_chars: text.length,
      is_error: false,
      status: 'ok',
    });

    // Page through the rest as the note says: every line arrives exactly once.
    const seen = [...text.matchAll(/^(\d+)\t(.*)$/gm)].map((m) => m[2]);
    let offset = next!;
    while (offset <= 400) {
      const page = (await t.call('read_file', { path: 'app.log', offset, limit: 50 })).result.content;
      expect(page).not.toMatch(/TRUNCATED/);
      const lines = [...page.matchAll(/^(\d+)\t(.*)$/gm)];
      expect(Number(lines[0]![1])).toBe(offset);
      seen.push(...lines.map((m) => m[2]));
      offset += lines.length;
    }
    expect(seen.join('\n') + '\n').toBe(LOG);
  });

  it('tells search to narrow its pattern', async () => {
    const t = setup({ files: { 'app.log': LOG } });
    const { result } = await t.call('search', { pattern: 'INFO', max_results: 400 });
    expect(result.content).toMatch(
      /\[TRUNCATED: \d+ more characters not shown\. Narrow the pattern, pass a path to search one file or folder, or lower max_results\.\]$/,
    );
  });

  it('leaves results alone when truncateChars is 0', async () => {
    const t = setup({ files: { 'app.log': LOG }, config: { truncateChars: 0 } });
    const { result } = await t.call('read_file', { path: 'app.log' });
    expect(result.content).not.toMatch(/TRUNCATED/);
    expect(t.of('tool_call')[0]).not.toHaveProperty('truncated_chars');
  });
});

describe('executor: tool faults', () => {
  it('throw: the tool crashes, the executor answers with the error', async () => {
    const t = setup({ faults: [{ id: 'boom', tool: 'read_file', enabled: true, kind: 'throw' }] });
    const { result } = await t.call('read_file', { path: 'README.md' });
    expect(result).toMatchObject({
      isError: true,
      content: 'InjectedToolError: read_file crashed (tool fault "boom")',
    });
    expect(t.of('tool_call')[0]).toMatchObject({ status: 'error' });
    // Other tools are untouched; a disabled fault does nothing.
    expect((await t.call('list_files')).result.isError).toBe(false);
    t.setFaults([{ id: 'boom', tool: 'read_file', enabled: false, kind: 'throw' }]);
    expect((await t.call('read_file', { path: 'package.json' })).result.isError).toBe(false);
  });

  it('flaky: fails with probability p under the seed, the same way every run', async () => {
    const outcomes = async (seed: number) => {
      const t = setup({
        seed,
        config: { loopGuard: false, safeExecutor: false },
        faults: [{ id: 'f', tool: '*', enabled: true, kind: 'flaky', p: 0.5 }],
      });
      const out: boolean[] = [];
      for (let n = 0; n < 20; n++) out.push((await t.call('probe', { n })).result.isError);
      return out;
    };
    const a = await outcomes(3);
    expect(a).toEqual(await outcomes(3));
    expect(a.filter(Boolean).length).toBeGreaterThan(3);
    expect(a.filter(Boolean).length).toBeLessThan(17);
    const always = setup({ faults: [{ id: 'f', tool: 'probe', enabled: true, kind: 'flaky', p: 1 }] });
    expect((await always.call('probe')).result.content).toMatch(
      /^InjectedToolError: probe failed transiently \(flaky tool fault "f"\)/,
    );
    const never = setup({ faults: [{ id: 'f', tool: 'probe', enabled: true, kind: 'flaky', p: 0 }] });
    expect((await never.call('probe')).result.isError).toBe(false);
  });

  it('slow: the tool takes delayMs on the clock', async () => {
    const t = setup({ faults: [{ id: 's', tool: 'probe', enabled: true, kind: 'slow', delayMs: 5_000 }] });
    const { result } = await t.call('probe');
    expect(result.content).toBe('probe ok');
    expect(t.of('tool_call')[0]).toMatchObject({ latency_ms: 5_000, status: 'ok' });
  });

  it('huge: the output is exactly chars long (then truncated when that rule is on)', async () => {
    const raw = setup({
      config: { truncateChars: 0 },
      faults: [{ id: 'h', tool: 'list_files', enabled: true, kind: 'huge', chars: 20_000 }],
    });
    const big = await raw.call('list_files');
    expect(big.result.content).toHaveLength(20_000);
    expect(big.result.content).toMatch(/^5 files in the workspace:/);
    expect(raw.of('tool_call')[0]?.result_chars).toBe(20_000);
    const cut = setup({ faults: [{ id: 'h', tool: '*', enabled: true, kind: 'huge', chars: 20_000 }] });
    await cut.call('list_files');
    expect(cut.of('tool_call')[0]?.truncated_chars).toBeGreaterThan(16_000);
  });

  it('reads faults at every call, so a live toggle applies to the next call', async () => {
    const t = setup();
    expect((await t.call('probe', { n: 1 })).result.isError).toBe(false);
    t.setFaults([{ id: 'boom', tool: 'probe', enabled: true, kind: 'throw' }]);
    expect((await t.call('probe', { n: 2 })).result.isError).toBe(true);
    t.setFaults([]);
    expect((await t.call('probe', { n: 3 })).result.isError).toBe(false);
  });
});
