import { expect, type Locator, type Page } from '@playwright/test';
import { RunView } from './run-view';

/** Page object for one run (`/runs/<id>`), live or finished. */
export class RunPage extends RunView {
  readonly downloadTrace: Locator;
  readonly inspector: Locator;
  readonly waterfallAttempts: Locator;
  readonly waterfallMarkers: Locator;

  constructor(page: Page) {
    super(page);
    this.downloadTrace = page.getByTestId('download-trace');
    this.inspector = page.getByTestId('inspector');
    this.waterfallAttempts = page.getByTestId('waterfall-attempt');
    this.waterfallMarkers = page.getByTestId('waterfall-marker');
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/runs/${encodeURIComponent(id)}`);
    await expect(this.status).toBeVisible();
  }

  /** Downloads the JSONL trace and returns its text. */
  async downloadTraceText(): Promise<string> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.downloadTrace.click()]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Keyboard shortcuts: j / k step between turns, i toggles the inspector. */
  async press(key: 'j' | 'k' | 'i' | 'a' | 'Escape'): Promise<void> {
    await this.page.locator('body').press(key);
  }
}
