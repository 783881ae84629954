/**
 * The Users list's call, in the shell's bundle (the registry names it) so that a first load of
 * /console/users can ask for its rows before the page's code has arrived.
 */
import { api } from '../../api/client.ts';
import { type AddressQuery, earlyLoader } from '../../api/list.ts';
import { userOrderings, userRoles } from '../../api/values.ts';

/** The list's search, filters and order, read from the address. */
export const usersQuery = (q: AddressQuery) => ({
  search: q.text('search'),
  role: q.oneOf('role', userRoles),
  is_active: q.flag('is_active'),
  group: q.text('group'),
  ordering: q.oneOf('ordering', userOrderings),
});

export const loadUsers = earlyLoader((q) => api.GET('/api/v2/users', { params: { query: { ...q.paging, ...usersQuery(q) } } }));
