import { expect, type Locator, type Page } from '@playwright/test';

/**
 * What the playground and the run page share: the run view (status, turn cards, tool calls,
 * ladder, watchdog, terminate banner) and how a test waits on it.
 */
export class RunView {
  readonly status: Locator;
  readonly abortButton: Locator;
  readonly turnCards: Locator;
  readonly toolCalls: Locator;
  readonly ladderSteps: Locator;
  readonly watchdogBar: Locator;
  readonly terminateBanner: Locator;

  constructor(readonly page: Page) {
    this.status = page.getByTestId('run-status');
    this.abortButton = page.getByTestId('abort-button');
    this.turnCards = page.getByTestId('turn-card');
    this.toolCalls = page.getByTestId('tool-call');
    this.ladderSteps = page.getByTestId('ladder-step');
    this.watchdogBar = page.getByTestId('watchdog-bar');
    this.terminateBanner = page.getByTestId('terminate-banner');
  }

  async abort(): Promise<void> {
    await this.abortButton.click();
  }

  async expectStatus(word: string | RegExp, timeout = 30_000): Promise<void> {
    await expect(this.status).toContainText(word, { timeout });
  }

  /** Waits for the terminate banner and returns its reason and completeness. */
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

  toolCallsWithStatus(status: string): Locator {
    return this.page.locator(`[data-testid="tool-call"][data-status="${status}"]`);
  }
}
