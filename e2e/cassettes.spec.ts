import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';

/**
 * The shipped cassettes replay where they are offered: in the playground, each is picked as the
 * "Recorded (cassette)" vendor, which fills in the task and config it was recorded with and says
 * so; a fault is switched on on top; Run. The run completes on the recording — the fault's
 * retries are served the recorded answer again — and never leaves it.
 */
const SHIPPED = readdirSync('cassettes')
  .filter((file) => file.endsWith('.cassette.json'))
  .map((file) => ({
    name: file.slice(0, -'.cassette.json'.length),
    cassette: JSON.parse(readFileSync(`cassettes/${file}`, 'utf8')) as ShippedFile,
  }))
  .sort((a, b) => a.name.localeCompare(b.name));

interface ShippedFile {
  source: { vendor: string; model: string };
  config: { task: string; seed: number; preset: string; scenario: string };
  exchanges: unknown[];
}

test.use({ viewport: { width: 1440, height: 900 } });

test('the shipped cassettes are offered, each saying it keeps its recorded config', async ({ page }) => {
  expect(SHIPPED.map((s) => s.name)).toEqual(['explain-project.sim-anthropic', 'explain-project.sim-openai']);
  await page.goto('/cassettes');
  for (const { name, cassette } of SHIPPED) {
    const row = page.getByTestId('cassette-list').locator('tr', { hasText: name });
    await expect(row.getByTestId('cassette-config')).toHaveText(
      `keeps its recorded config (picking it in the playground fills it in): its own task, preset ${cassette.config.preset}, seed ${cassette.config.seed}`,
    );
  }
});

for (const { name, cassette } of SHIPPED) {
  test(`${name}: picked in the playground, it fills in its recorded task and config, and replays under a fault to the end`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await expect(playground.vendorSelect.locator('option[value="cassette"]')).toBeEnabled();
    await playground.vendorSelect.selectOption('cassette');
    await page.getByTestId('cassette-select').selectOption(`shipped:${name}`);

    // Filled in, and said so.
    const said = page.getByTestId('cassette-settings');
    await expect(said).toHaveAttribute('data-kept', 'true');
    await expect(said).toContainText(
      `Filled in from the recording: scenario ${cassette.config.scenario}, the task “${cassette.config.task}”`,
    );
    await expect(said).toContainText(`preset ${cassette.config.preset}, seed ${cassette.config.seed}`);
    await expect(page.getByTestId('cassette-settings-changed')).toHaveCount(0);
    await expect(page.getByTestId('task-input')).toHaveValue(cassette.config.task);
    await expect(playground.seedInput).toHaveValue(String(cassette.config.seed));
    await said.scrollIntoViewIfNeeded();
    await expect(said).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`${name}-picked.png`) });

    // A fault on top: the recording holds no 529s; the retries get the recorded answer again.
    await playground.setFault('overloaded-x3');
    const id = await playground.run();
    expect(await playground.waitForEnd(60_000)).toEqual({ reason: 'end_turn', complete: true });

    const trace = await (await page.request.get(`/api/runs/${id}/trace`)).text();
    const events = trace
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            event: string;
            reason?: string;
            config?: { task?: string; replay?: unknown };
          },
      );
    expect(events.filter((e) => e.event === 'off_recording')).toEqual([]);
    expect(events.filter((e) => e.event === 'fault_injected')).toHaveLength(3);
    expect(events.find((e) => e.event === 'run_start')?.config).toMatchObject({
      task: cassette.config.task,
      replay: { cassette: `shipped:${name}` },
    });
    expect(events.filter((e) => e.event === 'model_request')).toHaveLength(cassette.exchanges.length + 3);
  });
}
