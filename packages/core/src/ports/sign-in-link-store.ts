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
