export interface NewSignInLinkRow {
  codeHash: string;
  userId: number;
  created: string;
  expiresAt: string;
}

/** One-time console sign-in links (auth/sign-in-link-service.ts); only the code's hash is kept. */
export interface SignInLinkStore {
  insert(row: NewSignInLinkRow): Promise<void>;
  /**
   * Marks the link with this hash used at `now` and answers its user's id, in one statement, when
   * it is neither used nor expired; otherwise undefined. Two requests with the same code cannot
   * both be answered.
   */
  consume(codeHash: string, now: string): Promise<number | undefined>;
  /** Deletes links that expired before `before`: a used or stale code is of no use to anyone. */
  deleteExpired(before: string): Promise<void>;
}

export interface NewOidcRequestRow {
  stateHash: string;
  nonce: string;
  codeVerifier: string;
  created: string;
  expiresAt: string;
}

/** Single sign-on requests waiting for the provider's answer (auth/oidc-sign-in-service.ts). */
export interface OidcRequestStore {
  insert(row: NewOidcRequestRow): Promise<void>;
  /**
   * Deletes the request with this state hash and answers its nonce and verifier, in one statement,
   * when it has not expired; otherwise undefined. A state is taken once, by whichever instance.
   */
  take(stateHash: string, now: string): Promise<{ nonce: string; codeVerifier: string } | undefined>;
  deleteExpired(before: string): Promise<void>;
}
