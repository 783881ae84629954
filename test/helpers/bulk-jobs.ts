import assert from 'node:assert/strict';
import type { ApiClient } from './server.ts';

/** Every listed item of a bulk job (`jobPath` ends with the job id and `/`), checking the list envelope. */
export async function jobItems(api: ApiClient, jobPath: string, query = ''): Promise<any[]> {
  const response = await api.get(`${jobPath}items/?page_size=100${query}`);
  assert.equal(response.status, 200, response.text);
  assert.ok(response.body.meta.total_count <= 100, 'one page holds every item of these tests');
  assert.equal(response.body.data.length, response.body.meta.total_count);
  return response.body.data;
}

/** Polls a job's status route until it is terminal (the spec's 2–5 s interval is for clients on a network). */
export async function waitForJob(api: ApiClient, path: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.get(path);
    assert.equal(response.status, 200, response.text);
    if (response.body.status === 'completed' || response.body.status === 'failed') return response.body;
    if (Date.now() > deadline) throw new Error(`job still ${response.body.status}: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
