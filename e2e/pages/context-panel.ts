import type { Locator, Page } from '@playwright/test';

/** Page object for the context panel of a run view: gauge, waterfall stepper, steps, "what was sent". */
export class ContextPanelPage {
  readonly panel: Locator;
  readonly gauge: Locator;
  readonly gaugeBars: Locator;
  readonly gaugeMarkers: Locator;
  readonly breakerLamp: Locator;
  readonly compactNow: Locator;
  readonly recoveries: Locator;
  readonly rungs: Locator;
  readonly steps: Locator;
  readonly sentView: Locator;
  readonly sentMessages: Locator;
  readonly sentStubs: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByTestId('context-panel');
    this.gauge = page.getByTestId('context-gauge');
    this.gaugeBars = page.getByTestId('gauge-bar');
    this.gaugeMarkers = page.getByTestId('gauge-marker');
    this.breakerLamp = page.getByTestId('breaker-lamp');
    this.compactNow = page.getByTestId('compact-now');
    this.recoveries = page.getByTestId('overflow-recovery');
    this.rungs = page.getByTestId('waterfall-rung');
    this.steps = page.getByTestId('compaction-step');
    this.sentView = page.getByTestId('sent-view');
    this.sentMessages = page.getByTestId('sent-message');
    this.sentStubs = page.locator('[data-testid="sent-result"][data-stub="yes"]');
  }

  rung(step: string): Locator {
    return this.page.locator(`[data-testid="waterfall-rung"][data-step="${step}"]`);
  }

  /** Shows what the request of this gauge column sent. */
  async selectRequest(index: number): Promise<void> {
    await this.gauge.locator(`[data-testid="gauge-bar"][data-index="${index}"]`).click();
  }
}
