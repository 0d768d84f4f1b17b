import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the sweep form (`/sweeps`) and a sweep's own page (`/sweeps/<id>`). */
export class SweepsPage {
  readonly progress: Locator;
  readonly rows: Locator;
  readonly cellRuns: Locator;

  constructor(readonly page: Page) {
    this.progress = page.getByTestId('sweep-progress');
    this.rows = page.getByTestId('sweep-row');
    this.cellRuns = page.getByTestId('cell-run');
  }

  async goto(): Promise<void> {
    await this.page.goto('/sweeps');
  }

  /** Sets the seed range, starts the sweep and waits for its page; returns the sweep id. */
  async start({ seedFrom = 1, seedTo }: { seedFrom?: number; seedTo: number }): Promise<string> {
    await this.page.getByTestId('sweep-seed-from').fill(String(seedFrom));
    await this.page.getByTestId('sweep-seed-to').fill(String(seedTo));
    await this.page.getByTestId('sweep-start').click();
    await this.page.waitForURL(/\/sweeps\/sweep-[^/]+$/);
    await expect(this.progress).toBeVisible();
    return new URL(this.page.url()).pathname.split('/').pop() ?? '';
  }

  async done(): Promise<number> {
    return Number(await this.progress.getAttribute('data-done'));
  }

  async waitForStatus(status: string, timeout = 120_000): Promise<void> {
    await expect(this.progress).toHaveAttribute('data-status', status, { timeout });
  }
}
