/**
 * Lighthouse's accessibility and best-practices scores of console pages, signed in. Lighthouse
 * drives the browser through puppeteer: Debian's Chromium, launched here. The tab is signed in
 * first (the token in its sessionStorage, on the console's origin); Lighthouse then navigates that
 * same tab with storage reset turned off, so the audited page loads as a signed-in person sees it.
 * Desktop settings, no simulated throttling: these two categories do not depend on speed.
 */
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROMIUM } from '../../test/console/chromium.ts';

export interface LighthouseScore {
  page: string;
  category: string;
  /** 0 to 100 */
  score: number;
  /** the audits that cost points: id and title */
  failing: string[];
}

const CATEGORIES = ['accessibility', 'best-practices'];

export async function auditWithLighthouse(
  baseUrl: string,
  tokenKey: string,
  token: string,
  pages: Array<{ name: string; path: string }>,
): Promise<LighthouseScore[]> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const scores: LighthouseScore[] = [];
  try {
    for (const { name, path } of pages) {
      const page = await browser.newPage();
      await page.goto(`${baseUrl}/console/sign-in`);
      // as text: this script is compiled without the DOM's types
      await page.evaluate(`sessionStorage.setItem(${JSON.stringify(tokenKey)}, ${JSON.stringify(token)})`);
      const result = await lighthouse(
        `${baseUrl}/console/${path}`,
        {
          onlyCategories: CATEGORIES,
          disableStorageReset: true,
          formFactor: 'desktop',
          screenEmulation: { mobile: false, width: 1280, height: 900, deviceScaleFactor: 1, disabled: false },
          throttlingMethod: 'provided',
          logLevel: 'error',
        },
        undefined,
        page,
      );
      if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`Lighthouse on ${path}: ${lhr.runtimeError.message}`);
      for (const id of CATEGORIES) {
        const category = lhr.categories[id]!;
        const failing = category.auditRefs
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${ref.id}: ${lhr.audits[ref.id]!.title}`);
        scores.push({ page: name, category: category.title, score: Math.round((category.score ?? 0) * 100), failing });
      }
      await page.close();
    }
  } finally {
    await browser.close();
  }
  return scores;
}
