/**
 * Bulk actions on selected users. The API has no bulk route for deactivation, so each user gets
 * its own PATCH (a few at a time) and its own outcome.
 */
import { api, unwrap } from '../../api/client.ts';
import type { User } from '../../api/types.ts';
import { counted, type Selectable } from '../../components/bulk-bar.tsx';
import { outcomeOfEach } from '../../components/bulk-outcome.ts';
import { runEach } from '../../components/run-each.ts';

const noun = ['user', 'users'] as const;
/** A user as their row's box and a report name them: name and email, since names repeat. */
export const userRowName = (user: User) => `${user.name} (${user.email})`;

function setActive(is_active: boolean) {
  return async (users: User[]) =>
    outcomeOfEach(
      is_active ? 'Reactivated' : 'Deactivated',
      await runEach(users, (user) =>
        unwrap(api.PATCH('/api/v2/users/{id}', { params: { path: { id: user.public_id } }, body: { is_active } })),
      ),
      userRowName,
    );
}

export const userBulkActions: Selectable<User> = {
  noun,
  rowName: userRowName,
  actions: [
    {
      label: 'Deactivate',
      danger: true,
      confirm: (users) => `Deactivate ${counted(users.length, noun)}? Their tokens stop working.`,
      run: setActive(false),
      skip: { when: (user) => !user.is_active, already: 'inactive' },
    },
    { label: 'Reactivate', run: setActive(true), skip: { when: (user) => user.is_active, already: 'active' } },
  ],
};
