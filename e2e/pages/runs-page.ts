import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the run list (`/runs`) and its Import button. */
export class RunsPage {
  readonly rows: Locator;
  readonly importInput: Locator;
  readonly importError: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId('runs-row');
    this.importInput = page.getByTestId('import-input');
    this.importError = page.getByTestId('import-error');
  }

  async goto(): Promise<void> {
    await this.page.goto('/runs');
  }

  row(id: string): Locator {
    return this.page.locator(`[data-testid="runs-row"][data-run-id="${id}"]`);
  }

  /** Uploads JSONL text as a file and waits for the imported run's page. */
  async importTrace(jsonl: string, name = 'trace.jsonl'): Promise<string> {
    await this.importInput.setInputFiles({
      name,
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(jsonl, 'utf8'),
    });
    await this.page.waitForURL(/\/runs\/[^/]+$/);
    const id = new URL(this.page.url()).pathname.split('/').pop() ?? '';
    await expect(this.page.getByTestId('run-status')).toBeVisible();
    return decodeURIComponent(id);
  }
}
