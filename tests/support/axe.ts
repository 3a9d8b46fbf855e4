// axe-core in the page under test, for the browser suites.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The part of axe-core's browser API the suites call. */
interface AxeApi {
  run(
    context: Document,
    options: { resultTypes: string[] },
  ): Promise<{ violations: { id: string; impact?: string | null; nodes: { target: string[] }[] }[] }>;
}

/**
 * axe-core's serious and critical findings on the page. The script is injected once per document
 * and kept across client-side navigations (@axe-core/playwright re-injects ~500 KB on every call,
 * which dominated the marketing suite's time); only violations are collected, which axe does much
 * faster. Evaluated over the DevTools protocol, so neither the gateway's CSP (script-src 'self') nor a
 * context with JavaScript disabled stops it.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Contrast read mid-transition (a toast fading in) is not the page's: wait for the finite animations
  // running now to end (at most 2 s; a spinner's never does). .ci/run once saw a toast's title at half opacity.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((r) => setTimeout(r, 2000)),
    ]),
  );
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: AxeApi }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
