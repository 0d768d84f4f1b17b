import { describe, expect, it } from 'vitest';
import { jsonPost, readSseEvents, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import type { RunEvent } from '@/lib/protocol';
import { ControlAcceptedSchema, CreatedRunSchema, ErrorBodySchema, parseResponse } from '@/lib/protocol/http';
import { POST as postRun } from '../../route';
import { GET as getEvents } from '../events/route';
import { POST as postControl } from './route';

const BASE = 'http://localhost/api';
useTempDataDir('loop-lab-pause-control-');
const ctx = (id: string) => routeContext({ id });
const control = (id: string, body: unknown) =>
  postControl(jsonPost(`${BASE}/runs/${id}/control`, JSON.stringify(body)), ctx(id));

describe('POST /api/runs/{id}/control: the hands-on actions', () => {
  it('a run paused before its first request goes on when told to continue; a deny without a message is a 400 naming it', async () => {
    const created = await postRun(
      jsonPost(
        `${BASE}/runs`,
        JSON.stringify({
          config: {
            provider: { vendor: 'sim-anthropic' },
            clock: 'virtual',
            budgets: { maxIterations: 2 },
            pause: { breakpoints: [{ on: 'request', request: 1 }] },
          },
        }),
      ),
    );
    expect(created.status).toBe(201);
    const { id } = parseResponse(CreatedRunSchema, await created.json(), 'POST /api/runs');

    const bad = await control(id, { action: 'deny', callId: 'c1', message: '  ' });
    expect(bad.status).toBe(400);
    const error = parseResponse(ErrorBodySchema, await bad.json(), 'error 400');
    expect((error.details ?? []).join(' ')).toContain('a denial needs a message');

    // Paused on the virtual clock, the run waits for as long as nobody answers.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const accepted = await control(id, { action: 'continue' });
    expect(accepted.status).toBe(202);
    expect(parseResponse(ControlAcceptedSchema, await accepted.json(), 'control')).toEqual({
      accepted: 'continue',
    });
    const events = await readSseEvents<RunEvent>(
      await getEvents(new Request(`${BASE}/runs/${id}/events`), ctx(id)),
    );
    const paused = events.find((e) => e.event === 'paused');
    expect(paused).toMatchObject({ at: 'before request 1 goes to the vendor' });
    expect(events.find((e) => e.event === 'resumed')).toMatchObject({ action: 'continue', by: 'api' });
    expect(events.at(-1)).toMatchObject({ event: 'terminate' });
  });
});
