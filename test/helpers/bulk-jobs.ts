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
