import { describe, expect, it } from 'vitest';
import { jsonPost, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import {
  ErrorBodySchema,
  ForkListSchema,
  parseResponse,
  PlayedLessonSchema,
  RunRecordSchema,
} from '@/lib/protocol/http';
import { GET as getRun } from '../../../runs/[id]/route';
import { GET as getForks } from '../../../runs/[id]/forks/route';
import { POST as play } from './route';
import { lessonBySlug } from '@/lib/lessons';
import { playLessonHere } from '@/lib/runtime/lesson-sides';
import { getStore } from '@/lib/store';
import { deterministicContent } from '@/lib/testing/deterministic-log';

useTempDataDir('loop-lab-lessons-');

const request = (body: string) => jsonPost('http://localhost/api/lessons/x/play', body);
const ctx = (slug: string) => routeContext({ slug });

describe('POST /api/lessons/{slug}/play', () => {
  it('starts both sides: the same config and seed, the mechanism off on one', async () => {
    const response = await play(request(JSON.stringify({ timeScale: 0.01 })), ctx('retry-ladder'));
    expect(response.status).toBe(201);
    const played = parseResponse(PlayedLessonSchema, await response.json(), 'POST play');
    expect(played).toMatchObject({ slug: 'retry-ladder', timeScale: 0.01 });
    expect(played.on).not.toBe(played.off);
    const record = async (id: string) =>
      parseResponse(
        RunRecordSchema,
        await (await getRun(new Request(`http://localhost/api/runs/${id}`), routeContext({ id }))).json(),
        'GET run',
      );
    const [on, off] = [(await record(played.on)).config, (await record(played.off)).config];
    expect(on).toMatchObject({ clock: 'paced', timeScale: 0.01, seed: 7, preset: 'codesmith', recovery: {} });
    expect(off).toMatchObject({
      clock: 'paced',
      timeScale: 0.01,
      seed: 7,
      preset: 'codesmith',
      recovery: { retry: { enabled: false } },
    });
    expect(off.faults).toEqual(on.faults);
    // Both finish on their own (0.01 × ~11 s of run time), before the store closes.
    const status = async (id: string) => (await record(id)).summary.status;
    await expect
      .poll(async () => [await status(played.on), await status(played.off)], {
        timeout: 10_000,
        interval: 100,
      })
      .toEqual(['completed', 'failed']);
    // As stored from the play, each side is the lesson's virtual-clock run event for event: the paced clock only set the pace.
    const virtual = await playLessonHere({
      lesson: lessonBySlug('retry-ladder')!,
      clock: { clock: 'virtual' },
    });
    expect(deterministicContent(await getStore().readEvents({ runId: played.on }))).toEqual(
      deterministicContent(virtual.on),
    );
    expect(deterministicContent(await getStore().readEvents({ runId: played.off }))).toEqual(
      deterministicContent(virtual.off),
    );
  });

  it('a forked lesson makes its parent run first, stores it, and forks both sides from it onto the lesson’s vendor', async () => {
    const response = await play(request(JSON.stringify({ timeScale: 0.01 })), ctx('fork-onto-responses'));
    expect(response.status).toBe(201);
    const played = parseResponse(PlayedLessonSchema, await response.json(), 'POST play');
    const record = async (id: string) =>
      parseResponse(
        RunRecordSchema,
        await (await getRun(new Request(`http://localhost/api/runs/${id}`), routeContext({ id }))).json(),
        'GET run',
      );
    const parent = await record(played.parent!);
    expect(parent.summary.status).toBe('completed');
    expect(parent.config).toMatchObject({ clock: 'virtual', provider: { vendor: 'sim-anthropic' } });
    const [on, off] = [await record(played.on), await record(played.off)];
    const forks = parseResponse(
      ForkListSchema,
      await (await getForks(new Request('http://localhost/x'), routeContext({ id: played.parent! }))).json(),
      'forks',
    );
    expect(forks.map((f) => [f.id, f.forked_at_turn]).sort()).toEqual(
      [
        [played.on, 2],
        [played.off, 2],
      ].sort(),
    );
    for (const side of [on, off]) {
      expect(side.config).toMatchObject({
        clock: 'paced',
        timeScale: 0.01,
        provider: { vendor: 'sim-openai-responses', model: 'gpt-sim-5' },
      });
    }
    expect(on.config.takeover.naive).toBe(false);
    expect(off.config.takeover.naive).toBe(true);
    const status = async (id: string) => (await record(id)).summary.status;
    await expect
      .poll(async () => [await status(played.on), await status(played.off)], {
        timeout: 10_000,
        interval: 100,
      })
      .toEqual(['completed', 'failed']);
  });

  it('404 names the lessons there are; 400 says what is wrong with the body', async () => {
    const missing = await play(request('{}'), ctx('no-such-lesson'));
    expect(missing.status).toBe(404);
    const body = parseResponse(ErrorBodySchema, await missing.json(), 'error');
    expect(body.error).toMatch(/No lesson "no-such-lesson"/);
    expect(body.details?.join(' ')).toMatch(/retry-ladder/);
    const bad = await play(request(JSON.stringify({ timeScale: 0 })), ctx('retry-ladder'));
    expect(bad.status).toBe(400);
    expect(parseResponse(ErrorBodySchema, await bad.json(), 'error').details?.join(' ')).toMatch(/timeScale/);
  });
});
