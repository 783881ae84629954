import type { GroupRecord, GroupRelation } from '../groups/group.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';
import type { ListNarrowing } from './list-narrowing.ts';
import type { UserRecord } from '../users/user.ts';

export interface NewGroupRow {
  publicId: string;
  name: string;
  source: string | null;
  created: string;
}

export interface GroupStore {
  insert(row: NewGroupRow): Promise<GroupRecord>;
  update(id: number, changes: { name?: string; modified: string }): Promise<void>;
  softDelete(id: number, at: string): Promise<void>;
  findById(id: number): Promise<GroupRecord | undefined>;
  findByPublicId(publicId: string): Promise<GroupRecord | undefined>;
  list(query: ListQuery, narrowing?: ListNarrowing): Promise<Page<GroupRecord>>;
  /** Internal ids of the given public ids among groups that are not deleted. */
  idsByPublicIds(publicIds: readonly string[]): Promise<Map<string, number>>;
  relatedUserIds(groupId: number, relation: GroupRelation): Promise<number[]>;
  addRelated(groupId: number, relation: GroupRelation, userIds: readonly number[], at: string): Promise<void>;
  removeRelated(groupId: number, relation: GroupRelation, userIds: readonly number[]): Promise<void>;
  isRelated(groupId: number, relation: GroupRelation, userId: number): Promise<boolean>;
  /** Members, filtered and paged with the users list spec. */
  listMembers(groupId: number, query: ListQuery): Promise<Page<UserRecord>>;
}
