/** Users, groups, and how they sign in. Conventions: ../schema.ts. */
import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  public_id: string;
  email: string;
  email_lower: string;
  /** foldCase(name), written with the name: what `search` compares and indexes */
  name_folded: string | null;
  name: string;
  role: string;
  employee_id: string | null;
  is_active: number;
  manager_id: number | null;
  date_joined: string;
  modified: string;
  /** 1 unless the user turned email off (migration 0020) */
  email_notifications: Generated<number>;
  /** SCIM: the identity provider's id, and when it deleted the user (migration 0023) */
  external_id: Generated<string | null>;
  scim_deleted_at: Generated<string | null>;
}

export interface GroupsTable {
  id: Generated<number>;
  public_id: string;
  name: string;
  source: string | null;
  created: string;
  modified: string;
  deleted_at: string | null;
  /** SCIM: the identity provider's id (migration 0023) */
  external_id: Generated<string | null>;
}

export interface GroupUsersTable {
  group_id: number;
  user_id: number;
  /** 'member' | 'owner' */
  relation: string;
  created: string;
}

export interface ApiTokensTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  name: string;
  token_hash: string;
  token_prefix: string;
  /** JSON array of scope names */
  scopes: string;
  expires_at: string | null;
  created: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** One-time console sign-in links (migration 0017). */
export interface SignInLinksTable {
  id: Generated<number>;
  code_hash: string;
  user_id: number;
  created: string;
  expires_at: string;
  used_at: string | null;
}

/** Console single sign-on requests waiting for the provider (migration 0021). */
export interface OidcRequestsTable {
  id: Generated<number>;
  state_hash: string;
  nonce: string;
  code_verifier: string;
  created: string;
  expires_at: string;
}
