/** Deactivating (with a confirmation: their tokens stop working) or reactivating a user. */
import { api, unwrap } from '../../api/client.ts';
import type { User } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';

export function ActiveToggle({ user, done }: { user: User; done: () => void }) {
  const label = user.is_active ? 'Deactivate' : 'Reactivate';
  return (
    <ActionButton
      label={label}
      danger={user.is_active}
      confirm={user.is_active ? `Deactivate ${user.email}? Their tokens stop working.` : undefined}
      run={() =>
        unwrap(api.PATCH('/api/v2/users/{id}', { params: { path: { id: user.public_id } }, body: { is_active: !user.is_active } }))
      }
      done={done}
      name={`${label} ${user.email}`}
    />
  );
}
