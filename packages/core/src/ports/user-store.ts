import type { Role } from '../auth/scopes.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';
import type { ListNarrowing } from './list-narrowing.ts';
import type { UserRecord } from '../users/user.ts';

export interface NewUserRow {
  publicId: string;
  email: string;
  name: string;
  role: Role;
  employeeId: string | null;
  managerId: number | null;
  isActive: boolean;
  dateJoined: string;
}

export type UserChanges = Partial<Pick<NewUserRow, 'email' | 'name' | 'role' | 'employeeId' | 'managerId' | 'isActive'>> & {
  emailNotifications?: boolean;
  modified: string;
};

/** A user found by email, with what an import's `update` row compares. */
export interface UserByEmail {
  id: number;
  publicId: string;
  name: string;
  role: string;
  employeeId: string | null;
}

export interface UserStore {
  insert(row: NewUserRow): Promise<UserRecord>;
  /** Many new users in a few statements (an import's batch), answered in the order given. */
  insertMany(rows: readonly NewUserRow[]): Promise<UserRecord[]>;
  update(id: number, changes: UserChanges): Promise<void>;
  findById(id: number): Promise<UserRecord | undefined>;
  findByPublicId(publicId: string): Promise<UserRecord | undefined>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<UserRecord | undefined>;
  /** Users by folded email, in one query for a batch (an import's chunk, a bulk job's chunk). */
  byEmails(emails: readonly string[]): Promise<Map<string, UserByEmail>>;
  /** Internal ids of the given public ids; unknown ones are absent from the map. */
  idsByPublicIds(publicIds: readonly string[]): Promise<Map<string, number>>;
  /** The managers above a user, nearest first. */
  managerChain(id: number): Promise<number[]>;
  countActiveAdmins(): Promise<number>;
  count(): Promise<number>;
  list(query: ListQuery, narrowing?: ListNarrowing): Promise<Page<UserRecord>>;
}
