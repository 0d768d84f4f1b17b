import { describe, expect, it } from 'vitest';
import { lessonRunConfig, LESSONS } from '@/lib/lessons';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { createRunThreads } from './run-threads';

describe('a run thread that is lost before its run sent anything', () => {
  it('ends the run with an internal_error terminate that names the run, as the first event of its log', async () => {
    // A thread whose code cannot be built: it is lost before the run sends a single event.
    const threads = createRunThreads({
      threads: 1,
      bundle: () => Promise.reject(new Error('no bundle here')),
    });
    const events: RunEvent[] = [];
    const handle = threads.launch({
      runId: 'run-lost-early',
      config: RunConfigSchema.parse(lessonRunConfig(LESSONS[0]!, 'on', { clock: 'real', timeScale: 1 })),
      onEvent: (event) => events.push(event),
    });
    await handle.done;
    expect(events).toEqual([
      expect.objectContaining({
        run_id: 'run-lost-early',
        seq: 0,
        ts: 0,
        event: 'terminate',
        reason: 'internal_error',
        complete: false,
        message:
          'the run thread stopped (its code could not be built: no bundle here); the run ended with it',
      }),
    ]);
    await threads.close();
  });
});
