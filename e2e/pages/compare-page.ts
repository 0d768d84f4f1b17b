import type { APIRequestContext, Locator, Page } from '@playwright/test';

/** Page object for /compare and the run page's comparison actions. */
export class ComparePage {
  readonly page: Page;
  readonly root: Locator;
  readonly turns: Locator;
  readonly divergedTurn: Locator;
  readonly marker: Locator;
  readonly divergence: Locator;
  readonly configRows: Locator;
  readonly totals: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId('compare-page');
    this.turns = page.getByTestId('compare-turn');
    this.divergedTurn = page.locator('[data-testid="compare-turn"][data-diverged="true"]');
    this.marker = page.getByTestId('divergence-marker');
    this.divergence = page.getByTestId('compare-divergence');
    this.configRows = page.getByTestId('config-row');
    this.totals = page.getByTestId('compare-totals');
  }

  async goto(a: string, b: string): Promise<void> {
    await this.page.goto(`/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  }

  configRow(path: string): Locator {
    return this.page.locator(`[data-testid="config-row"][data-path="${path}"]`);
  }

  total(id: string): Locator {
    return this.page.locator(`[data-testid="totals-row"][data-total="${id}"]`);
  }

  /** On a run page: switch one mechanism off and start the same config and seed. */
  async runCounterfactual(mechanism: string): Promise<void> {
    await this.page.getByTestId('counterfactual').click();
    await this.page.getByTestId('counterfactual-mechanism').selectOption(mechanism);
    await this.page.getByTestId('counterfactual-start').click();
  }
}

/** Starts a run through the API and waits for it to end (virtual clock: well under a second of run work). */
export async function finishedRun(request: APIRequestContext, config: Record<string, unknown>): Promise<string> {
  const created = await request.post('/api/runs', { data: { config } });
  if (created.status() !== 201) throw new Error(`POST /api/runs: ${created.status()} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  for (let i = 0; i < 200; i += 1) {
    const detail = (await (await request.get(`/api/runs/${id}`)).json()) as { summary: { status: string } };
    if (detail.summary.status !== 'running') return id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${id} did not end`);
}
