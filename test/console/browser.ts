/**
 * What the console's browser tests share: Debian's Chromium driven by playwright-core (no browser
 * download), the built console (built here when packages/console/dist is missing), sign-in, the
 * axe-core check every page passes, and screenshots at desktop and phone widths into
 * test-results/console/ (kept by CI, ignored by git).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { openChromium } from './chromium.ts';
import { repoRoot } from '../helpers/server.ts';

export const screenshotDir = join(repoRoot, 'test-results/console');
const axePath = join(repoRoot, 'node_modules/axe-core/axe.min.js');

/**
 * Builds the console unless its build is current: the tests run the app as users get it, and a
 * checkout where packages/console/src changed since the last build gets the change.
 */
export function ensureConsoleBuilt(): void {
  const index = join(repoRoot, 'packages/console/dist/index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = join(repoRoot, 'packages/console/src');
  const newest = Math.max(
    ...readdirSync(sources, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.d.ts'))
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );
  if (built > newest) return;
  execFileSync(process.execPath, [join(repoRoot, 'packages/console/build.mjs')], { cwd: repoRoot, stdio: 'inherit' });
}

/**
 * A browser for the enclosing describe block (the run's, else its own: chromium.ts), connected
 * after the console is built, and a fresh context (its own sessionStorage) per call of `newPage`.
 */
export function useBrowser(): { newPage(width?: number, colorScheme?: 'light' | 'dark'): Promise<Page> } {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  before(async () => {
    ensureConsoleBuilt();
    browser = await openChromium();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    // an uncaught error in the page is a bug even when the flow carried on
    assert.deepEqual(errors, [], 'the console threw');
  });
  return {
    async newPage(width = 1280, colorScheme: 'light' | 'dark' = 'light') {
      const context = await browser!.newContext({
        viewport: { width, height: 900 },
        timezoneId: 'Europe/Berlin',
        locale: 'en-GB',
        colorScheme,
      });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      return page;
    },
  };
}

/** Signs in on the sign-in page by pasting a token, as a person would. */
export async function signInWithToken(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/console/sign-in`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Opens a page of the console through its navigation and waits for its heading. */
export async function openPage(page: Page, linkName: string, heading = linkName): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Console' });
  // at phone width the navigation folds behind the menu button
  const toggle = page.getByRole('button', { name: 'Menu' });
  if (await toggle.isVisible()) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }
  await nav.getByRole('link', { name: linkName, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

/** axe-core's serious and critical violations on the page as it stands, one line each. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // evaluated through the DevTools protocol: the console's CSP (rightly) refuses a script tag of it
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(axePath, 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node: any) => node.target.join(' ')).join(', ')})`,
      );
  });
}

/** No serious or critical accessibility violation on the page as it stands. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await accessibilityProblems(page), [], `${what}: accessibility violations`);
}

/** A full-page screenshot, named after the page and the viewport's width. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(screenshotDir, `${name}-${width}.png`), fullPage: true });
}

/** The texts that describe a control (its hint and the API's errors beside it, by aria-describedby). */
export async function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** Polls `check` until it holds: the console and the server work at their own pace. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
