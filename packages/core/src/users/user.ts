import { z } from 'zod';
import { roleSchema, roles } from '../auth/scopes.ts';
import type { ListSpec } from '../shared/list-query.ts';
import { emailField, nameField, publicIdField, userRefSchema } from '../shared/schema.ts';

/** A user as the API returns it. */
export const userSchema = z.object({
  public_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  employee_id: z.string().nullable(),
  is_active: z.boolean(),
  manager: userRefSchema.nullable(),
  date_joined: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** A stored user: the public view plus the internal keys other areas join on. */
export interface UserRecord {
  id: number;
  managerId: number | null;
  view: User;
}

const employeeIdField = () => z.string().trim().min(1).max(255).nullable();

export const createUserInput = z.strictObject({
  email: emailField(),
  name: nameField(),
  role: roleSchema.default('user'),
  employee_id: employeeIdField().optional(),
  manager: publicIdField().nullable().optional(),
});
export type CreateUserInput = z.input<typeof createUserInput>;

/**
 * An item of `POST /users/bulk/` (docs/api.md, docs/assignments.md): the bulk import also takes `regular`, the
 * specification's sample role, as an alias of `user`.
 */
export const bulkUserItem = z
  .strictObject({
    email: emailField(),
    name: nameField(),
    role: z.enum([...roles, 'regular']).default('user'),
    employee_id: employeeIdField().nullable().optional(),
  })
  .transform((item) => ({ ...item, role: item.role === 'regular' ? ('user' as const) : item.role }));

export const updateUserInput = z.strictObject({
  name: nameField().optional(),
  role: roleSchema.optional(),
  employee_id: employeeIdField().optional(),
  manager: publicIdField().nullable().optional(),
  is_active: z.boolean().optional(),
});
export type UpdateUserInput = z.input<typeof updateUserInput>;

export const userListSpec = {
  filters: {
    email: { kind: 'string' },
    employee_id: { kind: 'string' },
    is_active: { kind: 'boolean' },
    role: { kind: 'enum', values: roles },
    manager: { kind: 'uuid' },
    group: { kind: 'uuid' },
  },
  ranges: { date_joined: 'datetime' },
  search: true,
  ordering: ['name', 'email', 'role', 'employee_id', 'date_joined'],
  defaultOrdering: ['date_joined'],
} as const satisfies ListSpec;

export const userRef = (user: User) => ({ public_id: user.public_id, name: user.name, email: user.email });
