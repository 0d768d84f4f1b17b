import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CassetteListSchema, PromptSetListSchema, ScenarioListSchema } from '@/lib/protocol/http';
import { pickLists } from '@/lib/server';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { dispatch } from '@/scripts/api/dispatch-route';

/**
 * The lists the playground's page reads on the server and sends with its HTML (app/page.tsx) are
 * what the pickers would have asked for: each route's answer as the browser parses it, and in
 * room mode the visitor's own.
 */
useTempDataDir('loop-lab-pick-lists-');

const page = (cookie?: string) =>
  pickLists(new Request('http://localhost/', { headers: cookie ? { cookie } : {} }));

async function read(path: string, cookie?: string): Promise<unknown> {
  const response = await dispatch({ method: 'GET', path, ...(cookie ? { headers: { cookie } } : {}) });
  expect(response.status).toBe(200);
  return response.json();
}

async function savePromptSet(name: string, cookie?: string): Promise<void> {
  const response = await dispatch({
    method: 'POST',
    path: '/api/prompt-sets',
    body: JSON.stringify({ name, system: 'Be brief.' }),
    ...(cookie ? { headers: { cookie } } : {}),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

describe("the playground page's lists", () => {
  it('are the three routes answers, as the browser parses them', async () => {
    await savePromptSet('terse');
    const lists = await page();
    expect(lists).toBeDefined();
    expect(lists!.scenarios.length).toBeGreaterThan(1);
    expect(lists!.promptSets.map((s) => s.name)).toEqual(['terse']);
    expect(lists!.scenarios).toEqual(ScenarioListSchema.parse(await read('/api/scenarios')));
    expect(lists!.cassettes).toEqual(CassetteListSchema.parse(await read('/api/cassettes')));
    expect(lists!.promptSets).toEqual(PromptSetListSchema.parse(await read('/api/prompt-sets')));
    expect(Math.abs(lists!.at - Date.now())).toBeLessThan(5_000);
  });

  describe('in room mode', () => {
    const before = process.env.LOOP_LAB_ROOM_CODE;
    beforeAll(() => {
      process.env.LOOP_LAB_ROOM_CODE = 'pick-lists-room';
    });
    afterAll(() => {
      if (before === undefined) delete process.env.LOOP_LAB_ROOM_CODE;
      else process.env.LOOP_LAB_ROOM_CODE = before;
    });
    const join = async (): Promise<string> => {
      const response = await dispatch({
        method: 'POST',
        path: '/api/room/join',
        body: JSON.stringify({ code: 'pick-lists-room' }),
      });
      expect(response.status).toBe(200);
      return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    };

    it("are each visitor's own, and none without a session (the page then asks, and is sent to /room)", async () => {
      const [ada, bo] = [await join(), await join()];
      await savePromptSet('ada-only', ada);
      expect((await page(ada))!.promptSets.map((s) => s.name)).toEqual(['ada-only']);
      expect((await page(bo))!.promptSets).toEqual([]);
      expect((await page(ada))!.promptSets).toEqual(
        PromptSetListSchema.parse(await read('/api/prompt-sets', ada)),
      );
      expect(await page()).toBeUndefined();
      expect(await page('loop_lab_room=tampered')).toBeUndefined();
    });
  });
});
