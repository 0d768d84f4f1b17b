import { describe, expect, it } from 'vitest';
import { eventLog, RunConfigSchema, resolveRecovery, type EventBody, type RunEvent } from '@/lib/protocol';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { requestSplitLabel } from './request-counts';
import { initialRunViewState } from './run-view-state';

/**
 * A fork's log as launchRun writes it: run_start, forked_from, the parent's turns 1..2 copied
 * (their requests numbered 1..3 as the parent numbered them, one a retry), then its own
 * requests numbered from 1 again — the numbering the attempt budget counts.
 */
function forkLog(): RunEvent[] {
  const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual' });
  const request = (iteration: number, requestNo: number, attempt = 1, background = false): EventBody => ({
    event: 'model_request',
    iteration,
    attempt,
    request_no: requestNo,
    vendor: 'sim-anthropic',
    model: 'claude-sim-sonnet',
    message_count: 1,
    input_tokens_est: 10,
    max_tokens: 100,
    background,
  });
  const copied: EventBody[] = [
    { event: 'iteration_start', iteration: 1 },
    request(1, 1),
    { event: 'iteration_start', iteration: 2 },
    request(2, 2),
    request(2, 3, 2),
  ];
  const bodies: EventBody[] = [
    {
      event: 'run_start',
      config,
      recovery: resolveRecovery(config.preset),
      scenario: { id: config.scenario, title: 't', task: 't' },
      tools: [],
      vendor: 'sim-anthropic',
      model: 'claude-sim-sonnet',
      clock: 'virtual',
      time_scale: 1,
    },
    {
      event: 'forked_from',
      parent_run_id: 'parent-1',
      turn: 2,
      from_vendor: 'sim-anthropic',
      from_model: 'claude-sim-sonnet',
      copied_events: copied.length,
      messages: 5,
      inherited: { usd: 0, input_tokens: 0, output_tokens: 0 },
      workspace: { replayed: 0, diverged: [] },
    },
    ...copied,
    { event: 'iteration_start', iteration: 3 },
    request(3, 1),
    request(3, 2, 1, true),
  ];
  return eventLog('child', bodies);
}

describe('a fork’s request counts', () => {
  it('split the copied requests from the run’s own: the own count is what the attempt budget counts', () => {
    const log = forkLog();
    const view = foldRawEvents(initialRunViewState(), log);
    expect(view.forkedFrom?.turn).toBe(2);
    expect(view.requests).toBe(2);
    expect(view.copiedRequests).toBe(3);
    expect(requestSplitLabel(view)).toBe('5 requests: 3 copied from the parent, 2 in this run');
    // Before the fork's own first request, nothing is this run's yet.
    const early = foldRawEvents(initialRunViewState(), log.slice(0, 8));
    expect([early.requests, early.copiedRequests]).toEqual([0, 3]);
  });

  it("a fork of a fork links to its own parent and counts every copied request (two runs' requests, each numbered from 1)", () => {
    const child = forkLog().filter((e) => e.event !== 'run_start');
    const [start] = forkLog();
    const own: EventBody[] = [
      { event: 'iteration_start', iteration: 4 },
      {
        event: 'model_request',
        iteration: 4,
        attempt: 1,
        request_no: 1,
        vendor: 'sim-openai',
        model: 'gpt-sim-4o',
        message_count: 1,
        input_tokens_est: 10,
        max_tokens: 100,
        background: false,
      },
    ];
    const bodies: EventBody[] = [
      start!,
      {
        event: 'forked_from',
        parent_run_id: 'child',
        turn: 3,
        from_vendor: 'sim-anthropic',
        from_model: 'claude-sim-sonnet',
        copied_events: child.length,
        messages: 7,
        inherited: { usd: 0, input_tokens: 0, output_tokens: 0 },
        workspace: { replayed: 0, diverged: [] },
      },
      ...child,
      ...own,
    ];
    const log = eventLog('grandchild', bodies);
    const view = foldRawEvents(initialRunViewState(), log);
    // The child's own forked_from came along with its turns: it is not this run's link.
    expect(view.forkedFrom).toMatchObject({ parentRunId: 'child', turn: 3, lastCopiedSeq: 1 + child.length });
    expect(requestSplitLabel(view)).toBe('6 requests: 5 copied from the parent, 1 in this run');
  });

  it('a run that is not a fork counts every request as its own', () => {
    const log = forkLog().filter((e) => e.event !== 'forked_from');
    const view = foldRawEvents(initialRunViewState(), log);
    expect([view.requests, view.copiedRequests]).toEqual([3, 0]);
  });
});
