/**
 * In-app navigation, as a team lead moves through the console once it is open: a fresh context
 * (empty cache) signs in and opens the Overview, waits until the page and its requests have
 * settled, then follows a link of the side navigation to a list page. The time runs from the
 * click's event time stamp to the first animation frame after a data row of the new page's table
 * is in the document. The page's own code is fetched at that moment, as on a first visit.
 */
import type { Browser } from 'playwright-core';

export async function inAppNavigation(
  browser: Browser,
  { base, initScript, link, rowText }: { base: string; initScript: string; link: string; rowText: string },
): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    // Written as text, as the cold loads' script is. The observer is armed by the click only: the
    // Overview has tables of its own.
    await page.addInitScript(`
      ${initScript}
      window.lecternNavigation = { clickedAt: 0, paintedAt: 0 };
      document.addEventListener('click', function (event) {
        var target = event.target && event.target.closest ? event.target.closest('nav a') : null;
        if (!target) return;
        lecternNavigation.clickedAt = event.timeStamp;
        new MutationObserver(function (_, observer) {
          if (!/^\\/console\\/${link.toLowerCase()}/.test(location.pathname)) return;
          var rows = document.querySelectorAll('main table tbody tr');
          for (var i = 0; i < rows.length; i++) {
            if ((rows[i].textContent || '').indexOf(${JSON.stringify(rowText)}) === -1) continue;
            observer.disconnect();
            requestAnimationFrame(function () { lecternNavigation.paintedAt = performance.now(); });
            return;
          }
        }).observe(document, { subtree: true, childList: true, characterData: true });
      }, true);
    `);
    await page.goto(`${base}/console/`, { waitUntil: 'networkidle' });
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link, exact: true }).click();
    const handle = await page.waitForFunction(
      () => {
        const { clickedAt, paintedAt } = (globalThis as unknown as { lecternNavigation: { clickedAt: number; paintedAt: number } })
          .lecternNavigation;
        return paintedAt > 0 ? paintedAt - clickedAt : undefined;
      },
      undefined,
      { timeout: 30_000 },
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await context.close();
  }
}
