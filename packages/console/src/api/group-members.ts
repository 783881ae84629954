/** The members of groups, read page by page: the bulk assignment route takes users, not groups. */
import { api, unwrap } from './client.ts';

export async function membersOf(groupIds: readonly string[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const id of groupIds) {
    for (let page = 1; ; page++) {
      const result = await unwrap(api.GET('/api/v2/groups/{id}/members', { params: { path: { id }, query: { page, page_size: 100 } } }));
      for (const user of result.data) ids.add(user.public_id);
      if (page * result.meta.page_size >= result.meta.total_count) break;
    }
  }
  return [...ids];
}
