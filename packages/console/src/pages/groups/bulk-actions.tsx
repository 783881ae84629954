/**
 * Bulk action on a group's selected members: removing them, in one request (the membership route
 * takes several ids). The request succeeds or fails as a whole; when the API names entries of
 * `member_ids`, the report names the members they stand for.
 */
import { api, ApiError, unwrap } from '../../api/client.ts';
import type { User } from '../../api/types.ts';
import { counted, type Selectable } from '../../components/bulk-bar.tsx';
import type { BulkOutcome } from '../../components/bulk-outcome.ts';
import { userRowName } from '../users/bulk-actions.tsx';
import { memberFailures } from './member-failures.ts';

const noun = ['member', 'members'] as const;

export function memberBulkActions(groupId: string, done: () => void): Selectable<User> {
  const removeAll = async (rows: User[]): Promise<BulkOutcome> => {
    const member_ids = rows.map((user) => user.public_id);
    try {
      await unwrap(api.DELETE('/api/v2/groups/{id}/members', { params: { path: { id: groupId } }, body: { member_ids } }));
    } catch (caught) {
      const failures = caught instanceof ApiError ? memberFailures(rows, caught.fieldErrors, userRowName) : [];
      // an error about no member in particular (the group is gone, the token lacks the right) goes to the banner
      if (!failures.length) throw caught;
      return { done: 'Removed', succeeded: 0, failures, note: 'Nobody was removed: the group changes all at once or not at all.' };
    }
    return { done: 'Removed', succeeded: rows.length, failures: [] };
  };
  return {
    noun,
    rowName: userRowName,
    done,
    actions: [
      {
        label: 'Remove from group',
        danger: true,
        confirm: (rows) =>
          `Remove ${counted(rows.length, noun)} from this group? Their accounts stay; content shared with the group no longer reaches them.`,
        run: removeAll,
      },
    ],
  };
}
