import { describe, expect, it } from 'vitest';
import { lessonBySlug, lessonRunConfig, type Lesson } from '@/lib/lessons';
import { formatMs, type RunEvent } from '@/lib/protocol';
import { runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { lessonGlance } from './lesson-glance';

async function play(slug: string): Promise<{ lesson: Lesson; on: RunEvent[]; off: RunEvent[] }> {
  const lesson = lessonBySlug(slug)!;
  const [on, off] = await Promise.all([
    runToEnd(lessonRunConfig(lesson, 'on', { clock: 'virtual' })),
    runToEnd(lessonRunConfig(lesson, 'off', { clock: 'virtual' })),
  ]);
  return { lesson, on, off };
}

describe('a lesson report at a glance', () => {
  it('says what the mechanism did on each side, how each ended, and the time and cost it made, in the logs’ own numbers', async () => {
    const { lesson, on, off } = await play('retry-ladder');
    const glance = lessonGlance(lesson, on, off);
    const waited = on
      .filter((e) => e.event === 'retry_scheduled')
      .reduce((sum, e) => sum + (e.event === 'retry_scheduled' ? e.wait_ms : 0), 0);
    expect(waited).toBeGreaterThan(2_900);
    expect(glance.differences[0]).toBe(
      `Retry ladder and backoff: 2 retries, ${formatMs(waited)} waited with it on; none with it off.`,
    );
    expect(glance.differences[1]).toBe(
      'With it on the run finished — end turn, task done; with it off it did not finish — model error, task not done.',
    );
    const endOn = terminateOf(on);
    expect(terminateOf(off).ts).toBe(0);
    expect(glance.sides.on).toMatchObject({
      finished: true,
      durationMs: endOn.ts,
      usd: endOn.usd_so_far,
      requests: on.filter((e) => e.event === 'model_request').length,
    });
    expect(glance.sides.off).toMatchObject({ finished: false, durationMs: 0, usd: 0, requests: 1 });
    expect(glance.differences[2]).toBe(
      `Run time ${(endOn.ts / 1000).toFixed(1)} s on, 0 ms off — ${(endOn.ts / 1000).toFixed(1)} s longer with it on.`,
    );
    expect(glance.differences[3]).toMatch(
      new RegExp(
        `^Model requests ${glance.sides.on.requests} on, 1 off; cost \\$0\\.0\\d\\d on, \\$0 off — \\$0\\.0\\d\\d more with it on\\.$`,
      ),
    );
  });

  it('says when both sides ended alike, and counts waits the mechanism made (watchdog windows)', async () => {
    const background = await play('background-retry');
    expect(lessonGlance(background.lesson, background.on, background.off).differences.slice(0, 2)).toEqual([
      'Background retry account: 1 background retry, 2 s waited with it on; none with it off.',
      'Both sides finished — end turn, task done.',
    ]);
    const watchdog = await play('stream-idle-watchdog');
    const glance = lessonGlance(watchdog.lesson, watchdog.on, watchdog.off);
    expect(glance.sides.on.steps).toBe('2 watchdog firings, 4 min 30 s waited');
    expect(glance.sides.off.steps).toBe('none');
    expect(glance.differences[2]).toContain('shorter with it on');
  });
});

describe('a lesson whose task is done on neither side', () => {
  it('output-cap escalation: says why a whole answer still leaves the task not done, from the verdict events', async () => {
    const { lesson, on, off } = await play('output-cap-escalation');
    const verdict = on.findLast((e) => e.event === 'task_verdict');
    expect(verdict?.event === 'task_verdict' && verdict.verdict).toBe('not_done');
    expect(off.findLast((e) => e.event === 'task_verdict')).toMatchObject({ verdict: 'not_done' });
    const glance = lessonGlance(lesson, on, off);
    expect(glance.differences[1]).toBe(
      'With it on the run finished — end turn, task not done; with it off it did not finish — max tokens, task not done.',
    );
    expect(glance.differences[2]).toBe(
      'The task is not done on either side: the verdict runs test/slugify.test.js on the final workspace (4 of 6 hidden tests failed or did not run with it on), whatever the loop’s ending or the answer’s text.',
    );
  });
});

describe('a takeover lesson counts what each safeguard did, as the renderer counted it', () => {
  it('reasoning-placeholder: the placeholders given, not credentials; takeover-credentials: the credentials held back', async () => {
    const placeholder = await play('reasoning-placeholder');
    const [report] = placeholder.on.filter((e) => e.event === 'takeover_report');
    const given = report?.event === 'takeover_report' ? report.safeguards?.reasoning_placeholder?.applied : 0;
    // Every tool-call turn the first vendor's model wrote before the switch.
    const swapAt = placeholder.on.find((e) => e.event === 'swap')!.iteration!;
    const toolTurns = placeholder.on.filter(
      (e) => e.event === 'llm_call' && e.iteration! < swapAt && e.stop_reason === 'tool_use',
    ).length;
    expect(toolTurns).toBeGreaterThan(0);
    expect(given).toBe(toolTurns);
    expect(report?.event === 'takeover_report' && report.safeguards?.credentials).toBeUndefined();
    const [offReport] = placeholder.off.filter((e) => e.event === 'takeover_report');
    expect(offReport?.event === 'takeover_report' && offReport.safeguards).toEqual({
      reasoning_placeholder: { applied: 0, as_is: toolTurns },
    });
    expect(lessonGlance(placeholder.lesson, placeholder.on, placeholder.off).differences[0]).toBe(
      `Takeover: foreign credentials dropped: ${toolTurns} tool-call turns given the placeholder reasoning_content with it on; none with it off.`,
    );

    const credentials = await play('takeover-credentials');
    const [handled] = credentials.on.filter((e) => e.event === 'takeover_report');
    if (handled?.event !== 'takeover_report') throw new Error('no takeover_report');
    const held = handled.dropped.filter((d) => d.kind !== 'thinking_config').length;
    const thinkingOff = handled.dropped.filter((d) => d.detail.includes('the tool round in progress')).length;
    expect(held).toBeGreaterThan(0);
    expect(handled.safeguards).toEqual({
      credentials: { applied: held, as_is: 0 },
      ...(thinkingOff > 0 ? { latest_turn: { applied: thinkingOff, as_is: 0 } } : {}),
    });
    const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    expect(lessonGlance(credentials.lesson, credentials.on, credentials.off).sides.on.steps).toBe(
      [
        plural(
          held,
          'foreign credential held back at the switch',
          'foreign credentials held back at the switch',
        ),
        ...(thinkingOff > 0
          ? [
              plural(
                thinkingOff,
                'request with thinking asked off for the tool round in progress',
                'requests with thinking asked off for the tool round in progress',
              ),
            ]
          : []),
      ].join(', '),
    );
  });
});
