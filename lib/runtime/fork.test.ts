import { describe, expect, it } from 'vitest';
import { RunConfigSchema, type FaultRule, type RunEvent } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { launchRun } from './launch-run';
import { forkableTurns } from '@/lib/trajectory';
import { planFork } from './plan-fork';

/** Forks a stored log at a turn and runs the child to its end. */
async function forkRun(
  parent: RunEvent[],
  spec: {
    atTurn: number;
    provider?: 'sim-anthropic' | 'sim-openai' | 'sim-deepseek' | 'sim-openai-responses';
    model?: string;
  },
  onVendorRequest?: (request: { vendor: string; body: string }) => void,
): Promise<RunEvent[]> {
  const start = ofType(parent, 'run_start')[0]!;
  const plan = planFork({
    spec: { runId: 'parent', ...spec },
    parent: { config: start.config, running: false },
    events: parent,
  });
  if (!plan.ok) throw new Error(plan.problems.join('; '));
  const events: RunEvent[] = [];
  const handle = launchRun({
    runId: 'child',
    config: plan.config,
    fork: plan.fork,
    onEvent: (e) => events.push(e),
    ...(onVendorRequest ? { onVendorRequest } : {}),
  });
  await handle.done;
  return events;
}

/** What the model saw of turns 1..k: each turn's replies and tool results, ids included. */
function turnsUpTo(events: RunEvent[], k: number): unknown[] {
  return events
    .filter(
      (e) => 'iteration' in e && typeof e.iteration === 'number' && e.iteration >= 1 && e.iteration <= k,
    )
    .flatMap((e): unknown[] => {
      if (e.event === 'llm_call')
        return [{ turn: e.iteration, reply: e.message, vendor: e.vendor, model: e.model }];
      if (e.event === 'tool_call')
        return [
          {
            turn: e.iteration,
            call: e.call_id,
            tool: e.tool,
            args: e.args,
            result: e.result,
            is_error: e.is_error,
          },
        ];
      return [];
    });
}

const PARENT = { provider: { vendor: 'sim-anthropic' as const, thinking: true }, seed: 7 };

describe('fork a stored run at turn k', () => {
  it('the child’s first k turns are the parent’s, its workspace follows, and it runs on to a terminate', async () => {
    const parent = await runToEnd(PARENT);
    expect(terminateOf(parent)).toMatchObject({ reason: 'end_turn' });
    const k = 2;
    const child = await forkRun(parent, { atTurn: k });

    expect(turnsUpTo(child, k)).toEqual(turnsUpTo(parent, k));
    expect(turnsUpTo(child, k).length).toBeGreaterThan(2);
    const link = ofType(child, 'forked_from')[0]!;
    expect(link).toMatchObject({
      parent_run_id: 'parent',
      turn: k,
      from_vendor: 'sim-anthropic',
      from_model: 'claude-sim-sonnet',
    });
    expect(link.workspace.diverged).toEqual([]);
    // Copied events keep their time; the live part goes on from there (ts never goes back).
    const ts = child.map((e) => e.ts);
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    expect(child.map((e) => e.seq)).toEqual(child.map((_, i) => i));
    // Same vendor and model: no swap; the continuation is turn k+1 onwards.
    expect(ofType(child, 'swap')).toEqual([]);
    const live = ofType(child, 'iteration_start').filter((e) => e.seq > link.seq + link.copied_events);
    expect(live[0]?.iteration).toBe(k + 1);
    const end = terminateOf(child);
    expect(end.reason).toBe('end_turn');
    // The task is done in the fork too: the replayed edits plus its own.
    expect(ofType(child, 'task_verdict')[0]?.verdict).toBe(ofType(parent, 'task_verdict')[0]?.verdict);
    // Totals carry what the copied turns cost.
    const calls = ofType(child, 'llm_call');
    expect(end.usd_so_far).toBeCloseTo(
      calls.reduce((sum, c) => sum + (c.usd ?? 0), 0),
      5,
    );
    expect(end.input_tokens).toBe(calls.reduce((sum, c) => sum + c.input_tokens, 0));
  });

  it('a fork onto another vendor is a takeover: a fork swap and a takeover report on its first request', async () => {
    const parent = await runToEnd(PARENT);
    const child = await forkRun(parent, { atTurn: 1, provider: 'sim-openai' });
    const swaps = ofType(child, 'swap');
    expect(swaps.map((s) => [s.iteration, s.cause, s.from_vendor, s.to_vendor])).toEqual([
      [2, 'fork', 'sim-anthropic', 'sim-openai'],
    ]);
    const report = ofType(child, 'takeover_report')[0]!;
    expect(report).toMatchObject({ iteration: 2, vendor: 'sim-openai' });
    expect(report.dropped.some((d) => d.kind === 'thinking')).toBe(true);
    expect(ofType(child, 'model_error')).toEqual([]);
    expect(
      ofType(child, 'llm_call')
        .filter((c) => c.iteration > 1)
        .every((c) => c.vendor === 'sim-openai'),
    ).toBe(true);
    expect(terminateOf(child).reason).toBe('end_turn');
  });

  it('onto the DeepSeek-style vendor, the reasoning rule is met (every request accepted)', async () => {
    const parent = await runToEnd(PARENT);
    const child = await forkRun(parent, { atTurn: 2, provider: 'sim-deepseek' });
    expect(ofType(child, 'model_error')).toEqual([]);
    expect(ofType(child, 'takeover_report')[0]?.naive).toMatchObject({ accepted: false, status: 400 });
    expect(terminateOf(child).reason).toBe('end_turn');
  });

  it('onto the Responses API: the history goes by value (no stored response holds it), every request accepted', async () => {
    const parent = await runToEnd(PARENT);
    const child = await forkRun(parent, { atTurn: 2, provider: 'sim-openai-responses' });
    expect(ofType(child, 'model_error')).toEqual([]);
    const [report] = ofType(child, 'takeover_report');
    expect(report).toMatchObject({
      vendor: 'sim-openai-responses',
      dialect: 'openai-responses',
      naive: { accepted: false, status: 400 },
    });
    expect(report!.converted.some((c) => c.endsWith('× message sent by value'))).toBe(true);
    expect(terminateOf(child).reason).toBe('end_turn');
  });

  it('a Responses run forked on the same model: its sealed reasoning, read back from the log, is accepted by value', async () => {
    const parent = await runToEnd({ ...PARENT, provider: { vendor: 'sim-openai-responses' } });
    const bodies: { input: { type?: string; encrypted_content?: string }[] }[] = [];
    const child = await forkRun(parent, { atTurn: 2 }, ({ body }) =>
      bodies.push(JSON.parse(body) as (typeof bodies)[number]),
    );
    expect(ofType(child, 'model_error')).toEqual([]);
    const sealed = bodies[0]!.input.filter((item) => item.type === 'reasoning');
    expect(sealed).toHaveLength(2);
    expect(sealed.every((item) => item.encrypted_content?.startsWith('gAAAAAB'))).toBe(true);
    expect(terminateOf(child).reason).toBe('end_turn');
  });

  it('refuses what cannot be forked, naming the field', async () => {
    const parent = await runToEnd(PARENT);
    const config = ofType(parent, 'run_start')[0]!.config;
    const turns = ofType(parent, 'iteration_start').length;
    const plan = (atTurn: number, running = false, events = parent) =>
      planFork({ spec: { runId: 'p', atTurn }, parent: { config, running }, events });
    expect(planFork({ spec: { runId: 'gone', atTurn: 1 }, parent: undefined, events: [] })).toMatchObject({
      ok: false,
      status: 404,
      problems: [expect.stringMatching(/^fork\.runId: no run with id "gone"/)],
    });
    expect(plan(turns + 5)).toMatchObject({
      ok: false,
      status: 400,
      problems: [`fork.atTurn: turn ${turns + 5} is out of range: the run has turns 1 to ${turns}`],
    });
    // The last turn is the final answer: nothing to continue from.
    expect(plan(turns)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^fork\.atTurn: turn \d+ ends the conversation/)],
    });
    // A running parent: only turns it has finished.
    expect(
      plan(
        2,
        true,
        parent.filter((e) => !('iteration' in e) || e.iteration === undefined || e.iteration <= 2),
      ),
    ).toMatchObject({ ok: false, problems: [expect.stringMatching(/still running turn 2/)] });
    // Imported logs without messages cannot be continued.
    const bare = parent.map((e) => (e.event === 'llm_call' ? { ...e, message: undefined } : e));
    expect(plan(1, false, bare)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/not recorded in the log/)],
    });
  });

  it('the child config keeps the parent’s seed and drops planned swaps the copied turns passed', async () => {
    const parent = await runToEnd({
      ...PARENT,
      swaps: [
        { atTurn: 2, vendor: 'sim-openai', model: '' },
        { atTurn: 9, vendor: 'sim-deepseek', model: '' },
      ],
    });
    const start = ofType(parent, 'run_start')[0]!;
    const plan = planFork({
      spec: { runId: 'p', atTurn: 2 },
      parent: { config: start.config, running: false },
      events: parent,
    });
    if (!plan.ok) throw new Error(plan.problems.join('; '));
    expect(plan.config.seed).toBe(7);
    // Turn 2 ran on the scheduled OpenAI: the fork goes on there.
    expect(plan.config.provider).toMatchObject({ vendor: 'sim-openai', model: 'gpt-sim-4o' });
    expect(plan.config.swaps).toEqual([{ atTurn: 9, vendor: 'sim-deepseek', model: '' }]);
    expect(RunConfigSchema.safeParse(plan.config).success).toBe(true);
  });

  it('onto an endpoint by base URL: the address is the request’s, the key source says a key came with it, the clock is real', async () => {
    const parent = await runToEnd({ ...PARENT, clock: 'virtual' });
    const config = ofType(parent, 'run_start')[0]!.config;
    const plan = (
      spec: { provider?: 'openai-compatible' | 'sim-anthropic'; baseUrl?: string },
      keySent: boolean,
    ) =>
      planFork({
        spec: { runId: 'p', atTurn: 1, ...spec },
        parent: {
          config: { ...config, provider: { ...config.provider, keySource: 'request' } },
          running: false,
        },
        events: parent,
        keySent,
      });
    const onto = plan({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' }, true);
    expect(onto).toMatchObject({
      ok: true,
      config: {
        provider: { vendor: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', keySource: 'request' },
        clock: 'real',
      },
    });
    // Staying on the simulated vendor keeps the virtual clock; without a key the source is the environment.
    const same = plan({}, false);
    expect(same).toMatchObject({
      ok: true,
      config: { provider: { vendor: 'sim-anthropic', keySource: 'env' }, clock: 'virtual' },
    });
    expect(same.ok && same.config.provider.baseUrl).toBeFalsy();
  });
});

describe('fork after output-cap steps', () => {
  it('continuation prompts and escalations are rebuilt as the loop held them: every forkable turn continues without a vendor error', async () => {
    const parent = await runToEnd({
      ...PARENT,
      policy: 'long-output',
      maxOutputTokens: 200,
      recovery: { output: { escalate: true, escalatedMaxTokens: 300, maxContinuations: 3 } },
    });
    const actions = ofType(parent, 'output_recovery').map((s) => s.action);
    expect(actions).toEqual(expect.arrayContaining(['escalate', 'continue']));
    const turns = forkableTurns(parent);
    expect(turns.length).toBeGreaterThan(0);
    for (const k of turns.slice(0, 3)) {
      const child = await forkRun(parent, { atTurn: k });
      expect(turnsUpTo(child, k)).toEqual(turnsUpTo(parent, k));
      expect(ofType(child, 'model_error').filter((e) => e.iteration > k)).toEqual([]);
      expect(child.at(-1)?.event).toBe('terminate');
    }
  });
});

/** What a turn's requests met beneath the loop: each fault injected and each error the loop classified, in order. */
function faultsOfTurn(events: RunEvent[], turn: number, after = -1): unknown[] {
  return events
    .filter((e) => e.seq > after && 'iteration' in e && e.iteration === turn)
    .flatMap((e): unknown[] => {
      if (e.event === 'fault_injected') return [{ fault: e.rule_id, action: e.action }];
      if (e.event === 'model_error') return [{ error: e.status, category: e.category }];
      if (e.event === 'llm_call' && !e.background) return [{ reply: e.stop_reason }];
      return [];
    });
}

describe('a fork continues its parent’s fault plan', () => {
  const overloaded = {
    id: 'overloaded-x3',
    label: 'overloaded ×3',
    enabled: true,
    when: { kind: 'next', count: 3 },
    action: { type: 'http_error', status: 529 },
  } as const;

  it('overloaded ×3, forked at turn 4: turn 5 of the fork meets what turn 5 of the parent met (the three 529s were spent in turn 1)', async () => {
    const parent = await runToEnd({ ...PARENT, faults: { rules: [overloaded] } });
    expect(ofType(parent, 'fault_injected').map((e) => e.iteration)).toEqual([1, 1, 1]);
    const child = await forkRun(parent, { atTurn: 4 });
    const link = ofType(child, 'forked_from')[0]!;
    const live = link.seq + link.copied_events;
    expect(faultsOfTurn(child, 5, live)).toEqual(faultsOfTurn(parent, 5));
    expect(faultsOfTurn(child, 5, live)).toEqual([{ reply: expect.any(String) }]);
    expect(ofType(child, 'fault_injected').filter((e) => e.seq > live)).toEqual([]);
    const requests = [...ofType(parent, 'model_request'), ...ofType(parent, 'sdk_retry')].filter(
      (e) => (e.iteration ?? 0) <= 4,
    ).length;
    expect(link.faults).toMatchObject({ requests_before: requests, spent: { 'overloaded-x3': 3 } });
    expect(link.faults?.why).toContain('"overloaded ×3" spent (3 of 3), so it does not fire again');
    expect(terminateOf(child).reason).toBe('end_turn');

    // A fork of the fork starts where its parent's plan started, plus its own requests.
    const grandchild = await forkRun(child, { atTurn: 5 });
    const requests5 = [...ofType(parent, 'model_request'), ...ofType(parent, 'sdk_retry')].filter(
      (e) => (e.iteration ?? 0) <= 5,
    ).length;
    expect(ofType(grandchild, 'forked_from')[0]!.faults).toMatchObject({
      requests_before: requests5,
      spent: { 'overloaded-x3': 3 },
    });
  });

  it('toggles switched on during the copied turns are the fork’s plan, with what they spent', async () => {
    let sent = false;
    const parent = await runToEnd(PARENT, {
      onEvent: (e, control) => {
        if (e.event !== 'iteration_start' || e.iteration !== 2 || sent) return;
        sent = true;
        control({ action: 'set_faults', faults: { rules: [overloaded], tools: [] } });
      },
    });
    expect(ofType(parent, 'fault_injected').map((e) => e.iteration)).toEqual([3, 3, 3]);
    const plan = planFork({
      spec: { runId: 'p', atTurn: 4 },
      parent: { config: ofType(parent, 'run_start')[0]!.config, running: false },
      events: parent,
    });
    if (!plan.ok) throw new Error(plan.problems.join('; '));
    expect(plan.config.faults.rules.map((r) => r.id)).toEqual(['overloaded-x3']);
    expect(plan.fork.faults.position.spent).toEqual({ 'overloaded-x3': 3 });
  });

  it('a rule on request numbers counts the parent’s requests: the one the parent met at turn 5 hits the fork’s turn 5 too', async () => {
    const clean = await runToEnd(PARENT);
    const first5 = ofType(clean, 'model_request').find((e) => e.iteration === 5)!.request_no;
    const rule: FaultRule = {
      id: 'at-turn-5',
      enabled: true,
      when: { kind: 'requests', numbers: [first5] },
      action: { type: 'http_error', status: 500 },
    };
    const parent = await runToEnd({ ...PARENT, faults: { rules: [rule] } });
    expect(faultsOfTurn(parent, 5)).toEqual([
      { fault: 'at-turn-5', action: 'http_error' },
      { error: 500, category: 'internal' },
      { reply: expect.any(String) },
    ]);
    const child = await forkRun(parent, { atTurn: 4 });
    const link = ofType(child, 'forked_from')[0]!;
    expect(faultsOfTurn(child, 5, link.seq + link.copied_events)).toEqual(faultsOfTurn(parent, 5));
  });
});
