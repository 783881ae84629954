/**
 * The Assignments list offers, on each row, the actions core's assignment lifecycle allows in that
 * row's state, and only those: pressing one moves the row to its next state and its buttons follow.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignedArticle, uniqueEmail, useServer } from '../helpers/server.ts';
import { eventually, signInWithToken, useBrowser } from './browser.ts';

describe('console assignment actions by state', () => {
  const server = useServer();
  const browser = useBrowser();

  it('shows the actions each state allows, and follows the state as they are pressed', async () => {
    const email = uniqueEmail('stateacts');
    const { article, assigned } = await assignedArticle(server.api, { email, article: `Lifecycle article ${process.pid}` });
    const content = article.name as string;

    const page = await browser.newPage();
    await signInWithToken(page, server.url, server.adminToken);
    await page.goto(`${server.url}/console/assignments?content_item=${article.public_id}`);
    const row = page.getByRole('table', { name: 'Assignments' }).getByRole('row').filter({ hasText: email });

    const actionsShown = async (): Promise<string[]> => {
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
      return (await row.getByRole('button').allTextContents()).map((text) => text.trim()).sort();
    };
    const actionsAre = async (expected: string[], what: string) => {
      let last: string[] = [];
      await eventually(
        async () => {
          last = await actionsShown();
          return JSON.stringify(last) === JSON.stringify([...expected].sort());
        },
        `${what} (shown: ${last.join(', ')})`,
      );
    };
    const press = (label: string) => row.getByRole('button', { name: `${label} ${content} for ${email}`, exact: true }).click();

    await actionsAre(['Progress', 'Complete', 'Exempt', 'Drop'], 'not started');
    await press('Exempt');
    await actionsAre(['Progress', 'Complete', 'Drop', 'Undo exempt'], 'exempted');
    await press('Complete');
    await actionsAre(['Undo complete'], 'completed');
    await press('Undo complete');
    await actionsAre(['Progress', 'Complete', 'Exempt', 'Drop'], 'in progress after the undo');
    const after = await server.api.get(`/api/v2/assignments/${assigned.body.public_id}/`);
    assert.equal(after.body.state, 'in_progress');
  });
});
