/**
 * The Overview's completions per week: twelve bars, the current week's holding what was completed
 * through the API today, the same figures in the table beside the chart for screen readers, and the
 * week labels drawn without running into each other at both widths.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uniqueEmail, useServer } from '../helpers/server.ts';
import { assertAccessible, openPage, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console overview: completions per week', () => {
  const server = useServer();
  const browser = useBrowser();

  it('shows the last twelve weeks with today’s completions in the current one', async () => {
    const course = (await server.api.post('/api/v2/articles/', { name: 'Weekly reading' })).body;
    for (let n = 0; n < 3; n++) {
      const person = (await server.api.post('/api/v2/users/', { email: uniqueEmail('weekly'), name: `Weekly ${n}` })).body;
      const assigned = await server.api.post('/api/v2/assignments/', { user_id: person.public_id, content_item_id: course.public_id });
      assert.equal(assigned.status, 201, assigned.text);
      const done = await server.api.post(`/api/v2/assignments/${assigned.body.public_id}/complete/`);
      assert.equal(done.status, 200, done.text);
    }
    const expected = (await server.api.get('/api/v2/insights/assignments/weekly-completions/')).body;
    assert.equal(expected.weeks.at(-1).count, 3);

    for (const width of [1280, 390]) {
      const page = await browser.newPage(width);
      await signInWithToken(page, server.url, server.adminToken);
      await openPage(page, 'Overview');
      const figures = page.getByRole('table', { name: 'Completions per week' });
      await figures.waitFor({ state: 'attached' });
      const rows = await figures
        .locator('tr')
        .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]));
      assert.equal(rows.length, 12);
      assert.deepEqual(
        rows.map(([, count]) => Number(count)),
        expected.weeks.map((week: { count: number }) => week.count),
      );
      assert.equal(new Set(rows.map(([label]) => label)).size, 12, 'a distinct label per week');
      await page.getByText(`${expected.total} completed in the last 12 weeks`).waitFor();
      const chart = page.locator('figure.chart', { hasText: 'Completions per week' }).locator('canvas');
      const box = await chart.boundingBox();
      assert.ok(box && box.width > 200 && box.x + box.width <= width, `the chart fits the page at ${width} px: ${JSON.stringify(box)}`);
      await assertAccessible(page, `the overview at ${width} px`);
      await screenshot(page, 'overview-weekly');
    }
  });
});
