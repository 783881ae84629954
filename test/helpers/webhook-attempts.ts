import assert from 'node:assert/strict';
import type { TestServer } from './server.ts';

export const WEBHOOKS = '/public_api/v2/webhooks';

/** Polls the deliveries route until `done` holds for the attempts listed (newest first). */
export async function attemptsUntil(server: Pick<TestServer, 'api'>, id: string, done: (attempts: any[]) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await server.api.get(`${WEBHOOKS}/${id}/deliveries/?page_size=100`);
    assert.equal(response.status, 200, response.text);
    if (done(response.body.data)) return response.body.data as any[];
    if (Date.now() > deadline) assert.fail(`deliveries never reached the expected state: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
