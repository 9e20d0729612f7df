import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The axe impacts the product must not have; "minor" and "moderate" are reported by axe, not failed here. */
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

/**
 * Runs axe-core (injected into the page and its frames) against WCAG 2.x A/AA and best-practice rules,
 * and fails with a readable list when it finds a serious or critical violation.
 */
export async function expectNoAxeViolations(page: Page, options: { exclude?: string[] } = {}): Promise<void> {
  // Next streams a page's metadata after its body; after a server action re-renders the page into
  // another state, <title> can arrive a moment after the content. Wait for it rather than audit the gap.
  await expect(page).toHaveTitle(/\S/);
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary?.replace(/\s+/g, " ") ?? ""}`),
    }));
  expect(blocking, `axe-core: serious or critical violations on ${page.url()}`).toEqual([]);
}
