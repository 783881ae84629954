import { z } from 'zod';
import { roleSchema, roles } from '../auth/scopes.ts';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { emailField, nameField, publicIdField, userRefSchema } from '../shared/schema.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { StoredRecord } from '../shared/stored-record.ts';

/** A user as the API returns it. */
export const userSchema = z
  .object({
    public_id: z.string(),
    email: listed(z.string(), { filter: true, sort: true, search: true }),
    name: listed(z.string(), { sort: true, search: true }),
    role: listed(roleSchema, { filter: true, sort: true }),
    employee_id: listed(z.string().nullable(), { filter: true, sort: true }),
    is_active: listed(z.boolean(), { filter: true }),
    manager: listed(userRefSchema.nullable(), { filter: true }),
    date_joined: listed(z.string(), { range: 'datetime', sort: true }),
    /** the user's switch for email notifications (docs/notifications.md) */
    email_notifications: listed(z.boolean(), { filter: true }),
  })
  .register(apiSchemaNames, { id: 'User' });
export type User = z.infer<typeof userSchema>;

/** A stored user: the public view plus the internal keys other areas join on. */
export interface UserRecord extends StoredRecord<User> {
  managerId: number | null;
}

const employeeIdField = () => z.string().trim().min(1).max(255).nullable();

export const createUserInput = z
  .strictObject({
    email: emailField(),
    name: nameField(),
    role: roleSchema.default('user'),
    employee_id: employeeIdField().optional(),
    manager: publicIdField().nullable().optional(),
  })
  .register(apiSchemaNames, { id: 'UserCreate' });
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
  .transform((item) => ({ ...item, role: item.role === 'regular' ? ('user' as const) : item.role }))
  .register(apiSchemaNames, { id: 'UserBulkItem' });

export const updateUserInput = z
  .strictObject({
    name: nameField().optional(),
    role: roleSchema.optional(),
    employee_id: employeeIdField().optional(),
    manager: publicIdField().nullable().optional(),
    is_active: z.boolean().optional(),
    email_notifications: z.boolean().optional(),
  })
  .register(apiSchemaNames, { id: 'UserUpdate' });
export type UpdateUserInput = z.input<typeof updateUserInput>;

/** `group` is membership, kept in the group's own tables rather than a field of the user. */
export const userListSpec = listSpecOf(userSchema, { filters: { group: { kind: 'uuid' } }, defaultOrdering: ['date_joined'] });

export const userRef = (user: User) => ({ public_id: user.public_id, name: user.name, email: user.email });
