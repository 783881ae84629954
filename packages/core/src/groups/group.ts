import { z } from 'zod';
import type { ListSpec } from '../shared/list-query.ts';
import { nameField, publicIdField, userRefSchema } from '../shared/schema.ts';

export const NATIVE_SOURCE = 'native';

export const groupSchema = z.object({
  public_id: z.string(),
  name: z.string(),
  source: z.string().nullable(),
  member_count: z.number().int(),
  owners: z.array(userRefSchema),
  created: z.string(),
  modified: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

export interface GroupRecord {
  id: number;
  view: Group;
}

export const createGroupInput = z.strictObject({
  name: nameField(),
  source: z.string().trim().min(1).max(255).nullable().optional(),
});

export const updateGroupInput = z.strictObject({
  name: nameField().optional(),
});

/** Members and owners are two relations of users to a group, changed by the same six operations. */
export const groupRelations = ['member', 'owner'] as const;
export type GroupRelation = (typeof groupRelations)[number];
export type MembershipOperation = 'add' | 'remove' | 'replace';

export const MAX_MEMBER_IDS = 1000;

const memberIds = () => z.array(publicIdField()).min(1).max(MAX_MEMBER_IDS);

export const membershipInput = z.strictObject({ member_ids: memberIds() });

export const replaceMembershipInput = z.strictObject({
  member_ids: memberIds(),
  confirm_replace: z.boolean().default(false),
  confirm_large_removal: z.boolean().default(false),
});

export const groupListSpec = {
  filters: {
    name: { kind: 'string' },
    source: { kind: 'string' },
  },
  ranges: { created: 'datetime', modified: 'datetime' },
  search: true,
  ordering: ['name', 'source', 'member_count', 'created', 'modified'],
  defaultOrdering: ['created'],
} as const satisfies ListSpec;
