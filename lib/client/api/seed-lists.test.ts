import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { cassettesQuery } from './cassettes';
import { promptSetsQuery } from './prompt-sets';
import { scenariosQuery } from './runs';
import { seedLists, type SeedLists } from './seed-lists';

/**
 * The playground's pickers mount with the lists its page came with: react-query's own observer
 * (what useQuery subscribes) over the pickers' query options, their fetch replaced by a spy.
 */
const LISTS: SeedLists = {
  at: Date.now(),
  scenarios: [{ id: 'fix-failing-test', title: 'Fix a failing test', summary: 's', task: 't', tools: [] }],
  cassettes: { cassettes: [] },
  promptSets: [],
};

function mount(client: QueryClient) {
  const asked: string[] = [];
  const observers = [scenariosQuery, cassettesQuery, promptSetsQuery].map(
    (query) =>
      new QueryObserver(client, {
        ...query,
        queryFn: vi.fn(async () => {
          asked.push(String(query.queryKey[0]));
          return null;
        }),
      } as never),
  );
  const stops = observers.map((o) => o.subscribe(() => undefined));
  return { asked, observers, stop: () => stops.forEach((stop) => stop()) };
}

describe('the lists sent with the playground page', () => {
  it("are the pickers' answers at mount: nothing is asked for", async () => {
    const client = new QueryClient();
    seedLists(client, LISTS);
    const { asked, observers, stop } = mount(client);
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    expect(asked).toEqual([]);
    expect(observers.map((o) => o.getCurrentResult().data)).toEqual([
      LISTS.scenarios,
      LISTS.cassettes,
      LISTS.promptSets,
    ]);
  });

  it('are asked for again once older than their query allows (their age counted from the server read)', async () => {
    const client = new QueryClient();
    seedLists(client, { ...LISTS, at: Date.now() - 30_000 });
    const { asked, stop } = mount(client);
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    // Scenarios keep 60 s; cassettes and prompt sets 10 s.
    expect(asked.sort()).toEqual(['cassettes', 'prompt-sets']);
  });

  it('leave a list already cached as it is', () => {
    const client = new QueryClient();
    client.setQueryData(scenariosQuery.queryKey, []);
    seedLists(client, LISTS);
    expect(client.getQueryData(scenariosQuery.queryKey)).toEqual([]);
    expect(client.getQueryData(cassettesQuery.queryKey)).toEqual(LISTS.cassettes);
  });
});
