/** The roles a user may have, as the API's user schema lists them. */
import type { User } from '../../api/types.ts';

export const ROLES = ['user', 'organizer', 'admin'] as const satisfies readonly User['role'][];
type Role = (typeof ROLES)[number];
export const role = (value: string): Role => ((ROLES as readonly string[]).includes(value) ? (value as Role) : 'user');
