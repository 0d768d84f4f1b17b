import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lessonBySlug, lessonRunConfig } from '@/lib/lessons';
import { runToOtlp } from '@/lib/otel/run-to-otlp';
import type { RunEvent } from '@/lib/protocol';
import { runToEnd } from '@/lib/testing/run-to-end';
import { traceSpanRows } from '@/lib/client/explain/trace-spans';
import { TraceTable } from './lesson-trace';

/** The rows the page shows for a run's export: each span line's attributes and text, read back from the markup. */
function shown(log: RunEvent[]) {
  const otlp: unknown = JSON.parse(runToOtlp({ runId: 'lesson', events: log, startedAtMs: 0 }));
  const html = renderToStaticMarkup(createElement(TraceTable, { rows: traceSpanRows(otlp) }));
  return [...html.matchAll(/<tr[^>]*data-testid="trace-span"([^>]*)>(.*?)<\/tr>/g)].map(
    ([, attrs, cells]) => {
      const attr = (name: string) => new RegExp(`data-${name}="([^"]*)"`).exec(attrs!)![1]!;
      return {
        operation: attr('operation'),
        turn: attr('turn'),
        resend: attr('resend'),
        status: attr('status'),
        errorType: attr('error-type'),
        parent: attr('parent'),
        id: attr('span-id'),
        text: cells!.replace(/<[^>]+>/g, ' '),
      };
    },
  );
}

describe('reading-a-trace: every span claim of the lesson can be checked on the page', () => {
  it("the spans shown are the export's, and they bear out the lesson's words on both sides", async () => {
    const lesson = lessonBySlug('reading-a-trace')!;
    expect(lesson.trace).toBe(true);
    const [on, off] = await Promise.all([
      runToEnd(lessonRunConfig(lesson, 'on', { clock: 'virtual' })),
      runToEnd(lessonRunConfig(lesson, 'off', { clock: 'virtual' })),
    ]);
    const rows = shown(on);
    const agent = rows.filter((r) => r.operation === 'invoke_agent');
    const chats = rows.filter((r) => r.operation === 'chat');
    const tools = rows.filter((r) => r.operation === 'execute_tool');
    expect(agent).toHaveLength(1);
    expect(rows[0]).toBe(agent[0]);
    expect(lesson.text.costs).toContain(
      `On: ${chats.length} chat spans and ${tools.length} execute_tool spans under one invoke_agent span`,
    );
    expect([...chats, ...tools].every((r) => r.parent === agent[0]!.id)).toBe(true);
    // "Turn 3 is three chat spans in a row, resend_count 0, 1 and 2; the first two ERROR server_error."
    const turn = /Turn (\d+) is three chat spans in a row/.exec(lesson.text.costs)![1]!;
    const turnChats = chats.filter((r) => r.turn === turn);
    expect(turnChats.map((r) => [r.resend, r.status, r.errorType])).toEqual([
      ['0', 'ERROR', 'server_error'],
      ['1', 'ERROR', 'server_error'],
      ['2', 'UNSET', ''],
    ]);
    expect(lesson.text.costs).toContain('error.type server_error');
    // Each failed one shows the wait it carries, in the lesson's own figures.
    const [, first, second] = /\((\d+\.\d s), then (\d+\.\d s)\)/.exec(lesson.text.costs)!;
    expect(turnChats[0]!.text).toContain(`retry_scheduled: wait ${first}`);
    expect(turnChats[1]!.text).toContain(`retry_scheduled: wait ${second}`);
    expect(agent[0]!.status).toBe('UNSET');
    expect(rows.filter((r) => r.status === 'ERROR')).toHaveLength(2);

    // Off: the trace ends at turn 3 with one ERROR chat span; the agent span is ERROR, with the vendor's words.
    const offRows = shown(off);
    const offChats = offRows.filter((r) => r.operation === 'chat');
    expect(lesson.text.costs).toContain(`the trace ends at turn ${turn} with one ERROR chat span`);
    expect(offChats.filter((r) => r.status === 'ERROR').map((r) => r.turn)).toEqual([turn]);
    expect(offChats.at(-1)!.turn).toBe(turn);
    const offAgent = offRows.find((r) => r.operation === 'invoke_agent')!;
    expect(offAgent.status).toBe('ERROR');
    expect(offAgent.text).toContain('retry is off in this configuration');
  });
});
