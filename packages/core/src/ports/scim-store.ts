/** What SCIM provisioning keeps beside the users and groups it writes through their own stores. */
export interface ScimUserState {
  externalId: string | null;
  /** when an identity provider deleted the user; the SCIM routes no longer see it */
  deletedAt: string | null;
  /** the user row's last change, SCIM's meta.lastModified (read only) */
  modified: string;
}

export interface ScimStore {
  /** By internal user id; every id asked for is answered. */
  userStates(userIds: readonly number[]): Promise<Map<number, ScimUserState>>;
  setUserState(userId: number, state: Partial<Pick<ScimUserState, 'externalId' | 'deletedAt'>>): Promise<void>;
  /** By internal group id; every id asked for is answered. */
  groupExternalIds(groupIds: readonly number[]): Promise<Map<number, string | null>>;
  setGroupExternalId(groupId: number, externalId: string | null): Promise<void>;
  /** Each group's members' public ids, in the order they joined. */
  memberPublicIds(groupIds: readonly number[]): Promise<Map<number, string[]>>;
  /** A live group whose name equals `name` ignoring case. */
  groupIdByName(name: string): Promise<number | undefined>;
}
