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
  readonly configHeading: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId('compare-page');
    this.turns = page.getByTestId('compare-turn');
    this.divergedTurn = page.locator('[data-testid="compare-turn"][data-diverged="true"]');
    this.marker = page.getByTestId('divergence-marker');
    this.divergence = page.getByTestId('compare-divergence');
    this.configRows = page.getByTestId('config-row');
    this.totals = page.getByTestId('compare-totals');
    this.configHeading = page.getByTestId('compare-config').locator('h2');
  }

  /** A side's run time as the totals show it, in ms ("7.5 s", "12 s", "850 ms"). */
  async runTimeOf(side: 'a' | 'b'): Promise<number> {
    const cells = this.total('durationMs').locator('td');
    return parseShownMs(await cells.nth(side === 'a' ? 1 : 2).innerText());
  }

  /** How long a side's turn in progress has taken so far, as its card shows it ("3.1 s so far"). */
  async inProgressMs(turn: number, side: 'a' | 'b'): Promise<number> {
    const card = this.page.locator(
      `[data-testid="compare-turn"][data-turn="${turn}"] [data-testid="turn-side-${side}"]`,
    );
    const text = await card.innerText();
    const match = /([\d.]+ (?:ms|s)) so far/.exec(text);
    if (!match) throw new Error(`turn ${turn} side ${side} shows no time so far: ${text}`);
    return parseShownMs(match[1]!);
  }

  /** Text cut off by its box, or anything drawn outside the card or section it belongs to. */
  async clippedOrOutside(): Promise<string[]> {
    return this.root.evaluate((root) => {
      const bad: string[] = [];
      for (const box of root.querySelectorAll<HTMLElement>(
        'section, [data-testid^="compare-side-"], [data-testid="compare-turn"], [data-testid="compare-end"]',
      )) {
        const r = box.getBoundingClientRect();
        for (const el of box.querySelectorAll('*')) {
          const e = el.getBoundingClientRect();
          if (e.width > 0 && (e.right > r.right + 0.5 || e.left < r.left - 0.5))
            bad.push(`outside ${box.dataset.testid ?? box.tagName}: "${el.textContent?.slice(0, 40)}"`);
        }
      }
      for (const el of root.querySelectorAll('*')) {
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
          bad.push(`cut off: "${el.textContent?.slice(0, 40)}"`);
      }
      return bad;
    });
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

function parseShownMs(text: string): number {
  const match = /([\d.]+) (ms|s)/.exec(text);
  if (!match) throw new Error(`not a time: ${text}`);
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1);
}

/** Starts a run through the API and waits for it to end (virtual clock: well under a second of run work). */
export async function finishedRun(
  request: APIRequestContext,
  config: Record<string, unknown>,
): Promise<string> {
  const created = await request.post('/api/runs', { data: { config } });
  if (created.status() !== 201)
    throw new Error(`POST /api/runs: ${created.status()} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  for (let i = 0; i < 200; i += 1) {
    const detail = (await (await request.get(`/api/runs/${id}`)).json()) as { summary: { status: string } };
    if (detail.summary.status !== 'running') return id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${id} did not end`);
}
