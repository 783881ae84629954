/**
 * Every detail page (user, group, content item, event, series, webhook endpoint, import, bulk job),
 * opened at its own address, in the light and the dark scheme at desktop (1280 px) and phone
 * (390 px) width: axe-core finds no serious or critical violation (contrast included), nothing is
 * wider than the window, and a screenshot of each lands in test-results/console/. The records
 * carry what draws colour: badges of states, failed webhook deliveries, a wait list, failed rows.
 * (Locations and the audit log have no page per record: their lists are in the pages and dark-mode tests.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { waitForJob } from '../helpers/bulk-jobs.ts';
import { created, uniqueEmail, useServer } from '../helpers/server.ts';
import { accessibilityProblems, eventually, screenshot, signInWithToken, useBrowser } from './browser.ts';

describe('console detail pages in both colour schemes', () => {
  const server = useServer({ args: ['--allow-private-webhook-targets', '--webhook-retry-schedule', '1'] });
  const browser = useBrowser();
  const run = `${process.pid}${Date.now() % 100000}`;

  const made = (path: string, body: unknown) => created(server.api, path, body);

  /** Each detail page's address under /console/, its h1, and its screenshot's name. */
  async function records(): Promise<Array<{ path: string; title: string; name: string }>> {
    // nothing listens on port 9: every delivery fails, so the endpoint's log shows failures
    const hookUrl = `http://127.0.0.1:9/schemes-${run}`;
    const hook = await made('/public_api/v2/webhooks/', { url: hookUrl, events: ['enrollment.*'], is_active: true });
    const first = await made('/api/v2/users/', { email: uniqueEmail('schemes'), name: `Schemes${run} First` });
    const second = await made('/api/v2/users/', { email: uniqueEmail('schemes'), name: `Schemes${run} Second` });
    const group = await made('/api/v2/groups/', { name: `Schemes${run} group` });
    await made(`/api/v2/groups/${group.public_id}/members/`, { member_ids: [first.public_id, second.public_id] });
    const article = await made('/api/v2/articles/', { name: `Schemes${run} article` });
    const assignment = await made('/api/v2/assignments/', { user_id: first.public_id, content_item_id: article.public_id });
    assert.equal((await server.api.post(`/api/v2/assignments/${assignment.public_id}/complete/`)).status, 200);
    await made('/api/v2/assignments/', { user_id: second.public_id, content_item_id: article.public_id });
    const location = await made('/api/v2/locations/', { name: `Schemes${run} room`, timezone: 'Europe/Berlin' });
    const series = await made('/api/v2/event-series/', { name: `Schemes${run} series` });
    const event = await made('/api/v2/events/', {
      name: `Schemes${run} event`,
      event_series_id: series.public_id,
      location_id: location.id,
      enrollment_limit: 1,
      timeslots: [
        { starts_at: '2030-03-01T09:00:00Z', duration: 'PT1H' },
        { starts_at: '2030-03-02T09:00:00Z', duration: 'PT2H' },
      ],
    });
    await made('/api/v2/enrollments/', { user_id: first.public_id, event_id: event.public_id, attendance_method: 'in_person' });
    await made('/api/v2/enrollments/', {
      user_id: second.public_id,
      event_id: event.public_id,
      attendance_method: 'in_person',
      accept_waitlist: true,
    });
    const job = await made('/api/v2/users/bulk/', {
      users: [
        { email: uniqueEmail('schemesbulk'), name: 'Bulk Schemes' },
        { email: 'not-an-email', name: 'Broken' },
      ],
    });
    const csv = `email,name\n${uniqueEmail('schemesimport')},Imported Schemes\nnot-an-email,Broken Row\n`;
    const upload = await server.api.request('POST', '/api/v2/imports/?kind=users', {
      raw: csv,
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="schemes.csv"' },
    });
    assert.equal(upload.status, 202, upload.text);
    // the pages show finished work: the import's report, the job's items, the failed deliveries
    await waitForJob(server.api, `/api/v2/imports/${upload.body.id}/`);
    await waitForJob(server.api, `/api/v2/users/bulk/${job.id}/`);
    await eventually(
      async () => (await server.api.get(`/public_api/v2/webhooks/${hook.id}/deliveries/`)).body.data?.length > 0,
      'a failed delivery',
    );
    return [
      { path: `users/${first.public_id}`, title: first.name, name: 'user' },
      { path: `groups/${group.public_id}`, title: group.name, name: 'group' },
      { path: `content/${article.public_id}`, title: article.name, name: 'content' },
      { path: `events/${event.public_id}`, title: event.name, name: 'event' },
      { path: `events/series/${series.public_id}`, title: series.name, name: 'series' },
      { path: `webhooks/${hook.id}`, title: `Endpoint ${hookUrl}`, name: 'webhook' },
      { path: `imports/${upload.body.id}`, title: 'Import schemes.csv', name: 'import' },
      { path: `bulk-jobs/users/${job.id}`, title: `Job ${job.id} (users)`, name: 'bulk-job' },
    ];
  }

  /** Opens the page at its address and lists what is wrong with it. */
  async function problemsOf(page: Page, path: string, title: string): Promise<string[]> {
    await page.goto(`${server.url}/console/${path}`);
    await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    const problems = await accessibilityProblems(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) problems.push(`${overflow} px wider than the window`);
    return problems;
  }

  it('shows every detail page accessible and within the window, light and dark, at 1280 and 390 px', async () => {
    const pages = await records();
    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        const page = await browser.newPage(width, scheme);
        await signInWithToken(page, server.url, server.adminToken);
        for (const { path, title, name } of pages) {
          problems.push(...(await problemsOf(page, path, title)).map((problem) => `${name}, ${scheme} ${width} px: ${problem}`));
          await screenshot(page, `detail-${name}-${scheme}`);
        }
        await page.close();
      }
    }
    assert.deepEqual(problems, [], 'problems on detail pages');
  });
});
