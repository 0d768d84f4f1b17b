import { it } from 'vitest';
import { lessonBySlug, lessonRunConfig } from '@/lib/lessons';
import { foldTotals } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
it('probe', async () => {
  const lesson = lessonBySlug('prompt-caching')!;
  const [on, off] = await Promise.all([runToEnd(lessonRunConfig(lesson, 'on', { clock: 'virtual' })), runToEnd(lessonRunConfig(lesson, 'off', { clock: 'virtual' }))]);
  for (const [side, events] of [['on', on], ['off', off]] as const) {
    console.log(side, JSON.stringify(foldTotals(events)), terminateOf(events).reason, terminateOf(events).ts, ofType(events, 'llm_call').map((c) => `${c.iteration}:${c.input_tokens}/${c.cache_read_tokens}/${c.cache_write_tokens}${c.background ? 'B' : ''}`).join(' '), ofType(events, 'tool_call').map((c) => c.tool).join(','), ofType(events, 'compaction').length);
  }
});
