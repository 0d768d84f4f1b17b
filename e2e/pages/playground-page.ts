import { expect, type Locator, type Page } from '@playwright/test';
import { RunView } from './run-view';

/**
 * Page object for the playground (`/`): the control panel on the left, the current run on
 * the right. Selectors are the data-testid attributes the components promise.
 */
export class PlaygroundPage extends RunView {
  readonly runButton: Locator;
  readonly runLink: Locator;
  readonly scenarioSelect: Locator;
  readonly vendorSelect: Locator;
  readonly presetSelect: Locator;
  readonly clockSelect: Locator;
  readonly timeScaleInput: Locator;
  readonly seedInput: Locator;
  readonly runErrors: Locator;

  constructor(page: Page) {
    super(page);
    this.runButton = page.getByTestId('run-button');
    this.runLink = page.getByTestId('run-link');
    this.scenarioSelect = page.getByTestId('scenario-select');
    this.vendorSelect = page.getByTestId('vendor-select');
    this.presetSelect = page.getByTestId('preset-select');
    this.clockSelect = page.getByTestId('clock-select');
    this.timeScaleInput = page.getByTestId('time-scale-input');
    this.seedInput = page.getByTestId('seed-input');
    this.runErrors = page.getByTestId('run-errors');
  }

  async goto(): Promise<void> {
    await this.page.goto('/');
    await expect(this.runButton).toBeVisible();
  }

  faultToggle(id: string): Locator {
    return this.page.getByTestId(`fault-toggle-${id}`);
  }

  async setFault(id: string, on = true): Promise<void> {
    await this.faultToggle(id).setChecked(on);
  }

  /** Waits until the scenario list has loaded, then picks one by id. */
  async chooseScenario(id: string): Promise<void> {
    await expect(this.scenarioSelect.locator(`option[value="${id}"]`)).toHaveCount(1);
    await this.scenarioSelect.selectOption(id);
  }

  async configure(options: {
    scenario?: string;
    /** Simulated model behaviour; '' = the scenario's own. */
    policy?: string;
    vendor?: string;
    preset?: string;
    clock?: 'real' | 'virtual';
    timeScale?: number;
    seed?: number;
    faults?: string[];
  }): Promise<void> {
    if (options.scenario) await this.chooseScenario(options.scenario);
    if (options.vendor) await this.vendorSelect.selectOption(options.vendor);
    if (options.policy !== undefined)
      await this.page.getByTestId('policy-select').selectOption(options.policy);
    if (options.preset) await this.presetSelect.selectOption(options.preset);
    if (options.clock) await this.clockSelect.selectOption(options.clock);
    if (options.timeScale !== undefined && options.clock !== 'virtual')
      await this.timeScaleInput.fill(String(options.timeScale));
    if (options.seed !== undefined) await this.seedInput.fill(String(options.seed));
    for (const id of options.faults ?? []) await this.setFault(id);
  }

  /**
   * Adds a breakpoint from the panel's add row: on an event kind, before a tool call (a tool name,
   * or '' for any), before request N, or when the cost is over N dollars.
   */
  async addBreakpoint(
    breakpoint:
      | { on: 'event'; event: string }
      | { on: 'tool'; tool: string }
      | { on: 'request'; request: number }
      | { on: 'cost'; usd: number },
  ): Promise<void> {
    await this.page.getByTestId('breakpoint-kind').selectOption(breakpoint.on);
    if (breakpoint.on === 'event')
      await this.page.getByTestId('breakpoint-event').selectOption(breakpoint.event);
    if (breakpoint.on === 'tool')
      await this.page.getByTestId('breakpoint-tool').selectOption(breakpoint.tool);
    if (breakpoint.on === 'request')
      await this.page.getByTestId('breakpoint-request').fill(String(breakpoint.request));
    if (breakpoint.on === 'cost') await this.page.getByTestId('breakpoint-cost').fill(String(breakpoint.usd));
    await this.page.getByTestId('breakpoint-add').click();
  }

  /** Clicks Run and returns the new run's id (from the run link). */
  async run(): Promise<string> {
    await this.runButton.click();
    await expect(this.runLink).toBeVisible();
    const href = (await this.runLink.getAttribute('href')) ?? '';
    return href.replace(/^\/runs\//, '');
  }
}
