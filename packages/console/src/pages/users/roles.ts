/** The roles a user may have, as the API's user schema lists them. */
import type { User } from '../../api/types.ts';
import { userRoles } from '../../api/values.ts';

export const ROLES: readonly User['role'][] = userRoles;
export const role = (value: string): User['role'] => ROLES.find((known) => known === value) ?? 'user';
