import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { nameField, publicIdField, userRefSchema } from '../shared/schema.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { StoredRecord } from '../shared/stored-record.ts';

export const NATIVE_SOURCE = 'native';

export const groupSchema = z
  .object({
    public_id: z.string(),
    name: listed(z.string(), { filter: true, sort: true, search: true }),
    source: listed(z.string().nullable(), { filter: true, sort: true, search: true }),
    member_count: listed(z.number().int(), { sort: true }),
    owners: z.array(userRefSchema),
    created: listed(z.string(), { range: 'datetime', sort: true }),
    modified: listed(z.string(), { range: 'datetime', sort: true }),
  })
  .register(apiSchemaNames, { id: 'Group' });
export type Group = z.infer<typeof groupSchema>;

export type GroupRecord = StoredRecord<Group>;

export const createGroupInput = z
  .strictObject({
    name: nameField(),
    source: z.string().trim().min(1).max(255).nullable().optional(),
  })
  .register(apiSchemaNames, { id: 'GroupCreate' });

export const updateGroupInput = z
  .strictObject({
    name: nameField().optional(),
  })
  .register(apiSchemaNames, { id: 'GroupUpdate' });

/** Members and owners are two relations of users to a group, changed by the same six operations. */
export const groupRelations = ['member', 'owner'] as const;
export type GroupRelation = (typeof groupRelations)[number];
export const membershipOperations = ['add', 'remove', 'replace'] as const;
export type MembershipOperation = (typeof membershipOperations)[number];

export const MAX_MEMBER_IDS = 1000;

const memberIds = () => z.array(publicIdField()).min(1).max(MAX_MEMBER_IDS);

export const membershipInput = z.strictObject({ member_ids: memberIds() }).register(apiSchemaNames, { id: 'Membership' });

/**
 * The service refuses a replacement without `confirm_replace: true` (membership-rules.ts, with a
 * message naming the relation); the OpenAPI document says so through `.meta()`.
 */
export const replaceMembershipInput = z
  .strictObject({
    member_ids: memberIds(),
    confirm_replace: z.boolean().default(false).meta({ const: true, description: 'Must be true: a replacement is refused without it.' }),
    confirm_large_removal: z.boolean().default(false),
  })
  .meta({ required: ['member_ids', 'confirm_replace'] })
  .register(apiSchemaNames, { id: 'MembershipReplace' });

/**
 * `member` and `owner` (a user's public id: the groups that user is in, or owns) are membership,
 * kept in its own table rather than a field.
 */
export const groupListSpec = listSpecOf(groupSchema, {
  filters: { member: { kind: 'uuid' }, owner: { kind: 'uuid' } },
  defaultOrdering: ['created'],
});
