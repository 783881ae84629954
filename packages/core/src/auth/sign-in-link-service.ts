import * as crypto from 'node:crypto';
import type { ServiceDeps } from '../service-deps.ts';
import type { RequestContext } from './actor.ts';
import { nowIso, toIso } from '../shared/clock.ts';
import { fieldError, LecternError } from '../shared/errors.ts';
import { sha256 } from '../shared/sha256.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import type { UserRecord } from '../users/user.ts';
import {
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_TOKEN_HOURS,
  SIGN_IN_TOKEN_NAME,
  signInExchangeInput,
  type IssuedSignInLink,
  type SignInExchange,
} from './sign-in-link.ts';
import type { TokenService } from './token-service.ts';

/**
 * Unknown, used and expired codes answer alike (422 on the field `code`), so a caller learns
 * nothing about which codes exist; the message tells a person what to do next.
 */
const unusableLink = () =>
  fieldError(
    'code',
    `This sign-in link is unknown, already used or older than ${SIGN_IN_LINK_MINUTES} minutes; print a new one with lectern console-url.`,
  );

/**
 * One-time console sign-in links. The command line, which can open the database, mints a random
 * code for a user; the console exchanges it once, within minutes, for a short-lived token of that
 * user. A link in a chat or a browser history is worthless after its first use.
 */
export class SignInLinkService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly tokens: TokenService,
  ) {}

  /** A fresh link for an active user (`lectern console-url`); only the code's hash is stored. */
  async issue(user: UserRecord): Promise<IssuedSignInLink> {
    if (!user.view.is_active) throw new LecternError('validation_error', `${user.view.email} is deactivated and cannot sign in.`);
    const now = this.deps.clock.now();
    const code = crypto.randomBytes(32).toString('base64url');
    const expiresAt = toIso(new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000));
    await this.deps.storage.transaction(
      async (tx) => {
        await tx.signInLinks.deleteExpired(toIso(now));
        await tx.signInLinks.insert({ codeHash: hashCode(code), userId: user.id, created: toIso(now), expiresAt });
      },
      { withoutWriteLock: true },
    );
    return { code, expires_at: expiresAt };
  }

  /** `POST /api/v2/console/sign-in/`: the code for a token of its user, with the role's scopes. */
  async exchange(body: InputOf<typeof signInExchangeInput>, requestId: string = this.deps.ids.prefixed('req_')): Promise<SignInExchange> {
    const { code } = parseInput(signInExchangeInput, body);
    const now = nowIso(this.deps.clock);
    return this.deps.storage.transaction(async (tx) => {
      const userId = await tx.signInLinks.consume(hashCode(code), now);
      if (userId === undefined) throw unusableLink();
      const user = await tx.users.findById(userId);
      if (!user || !user.view.is_active) throw unusableLink();
      const expiresAt = toIso(new Date(this.deps.clock.now().getTime() + SIGN_IN_TOKEN_HOURS * 3_600_000));
      // the person signing in is the actor: the log says who opened a console session, and when
      const ctx: RequestContext = {
        actor: { kind: 'user', userId, publicId: user.view.public_id, role: user.view.role, scopes: new Set() },
        requestId,
      };
      const issued = await this.tokens.issue({ userId, role: user.view.role, name: SIGN_IN_TOKEN_NAME, expiresAt }, tx, ctx);
      await this.deps.audit.record(tx, ctx, 'console.signed_in', user.view.public_id);
      return { token: issued.token, expires_at: expiresAt };
    });
  }
}

const hashCode = (code: string) => sha256(code, 'hex');
