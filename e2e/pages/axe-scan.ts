import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The WCAG 2.0 and 2.1 A and AA rules: what the accessibility spec holds every page to. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Parts of the page that are a third-party widget's own markup we cannot change, each with
 * why. Everything else is scanned.
 */
export const THIRD_PARTY_EXCLUDES: { selector: string; reason: string }[] = [];

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** One line per offending node: rule, impact, selector and axe's own "fix any of" summary. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .flatMap((v) =>
      v.nodes.map((n) => {
        const summary = (n.failureSummary ?? '').replace(/\s+/g, ' ').trim();
        return `- ${v.id} [${v.impact ?? 'n/a'}] ${n.target.join(' ')} :: ${summary} (${v.helpUrl})`;
      }),
    )
    .join('\n');
}

/** Scans the page as it is now and fails with every violation spelled out. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  for (const { selector } of THIRD_PARTY_EXCLUDES) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  // Compared as text so a failure prints one readable line per offending element; soft, so one
  // run of the spec lists every page's violations, not only the first page's.
  expect.soft(describeViolations(violations), `${where}: accessibility rules broken`).toBe('');
}
