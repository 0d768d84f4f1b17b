import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for one run (`/runs/<id>`), live or finished. */
export class RunPage {
  readonly status: Locator;
  readonly abortButton: Locator;
  readonly downloadTrace: Locator;
  readonly turnCards: Locator;
  readonly toolCalls: Locator;
  readonly ladderSteps: Locator;
  readonly watchdogBar: Locator;
  readonly terminateBanner: Locator;
  readonly inspector: Locator;
  readonly waterfallAttempts: Locator;
  readonly waterfallMarkers: Locator;

  constructor(readonly page: Page) {
    this.status = page.getByTestId('run-status');
    this.abortButton = page.getByTestId('abort-button');
    this.downloadTrace = page.getByTestId('download-trace');
    this.turnCards = page.getByTestId('turn-card');
    this.toolCalls = page.getByTestId('tool-call');
    this.ladderSteps = page.getByTestId('ladder-step');
    this.watchdogBar = page.getByTestId('watchdog-bar');
    this.terminateBanner = page.getByTestId('terminate-banner');
    this.inspector = page.getByTestId('inspector');
    this.waterfallAttempts = page.getByTestId('waterfall-attempt');
    this.waterfallMarkers = page.getByTestId('waterfall-marker');
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/runs/${encodeURIComponent(id)}`);
    await expect(this.status).toBeVisible();
  }

  async expectStatus(word: string | RegExp, timeout = 30_000): Promise<void> {
    await expect(this.status).toContainText(word, { timeout });
  }

  async waitForEnd(timeout = 60_000): Promise<{ reason: string; complete: boolean }> {
    await expect(this.terminateBanner).toBeVisible({ timeout });
    return {
      reason: (await this.terminateBanner.getAttribute('data-reason')) ?? '',
      complete: (await this.terminateBanner.getAttribute('data-complete')) === 'true',
    };
  }

  turnCard(iteration: number): Locator {
    return this.page.locator(`[data-testid="turn-card"][data-iteration="${iteration}"]`);
  }

  /** Downloads the JSONL trace and returns its text. */
  async downloadTraceText(): Promise<string> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.downloadTrace.click()]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async abort(): Promise<void> {
    await this.abortButton.click();
  }

  /** Keyboard shortcuts: j / k step between turns, i toggles the inspector. */
  async press(key: 'j' | 'k' | 'i' | 'a' | 'Escape'): Promise<void> {
    await this.page.locator('body').press(key);
  }
}
