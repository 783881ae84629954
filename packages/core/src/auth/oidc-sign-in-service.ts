import type { ServiceDeps } from '../service-deps.ts';
import { toIso } from '../shared/clock.ts';
import { sha256 } from '../shared/sha256.ts';
import type { UserService } from '../users/user-service.ts';
import { systemActor } from './actor.ts';
import {
  OIDC_REQUEST_MINUTES,
  type OidcIdentity,
  type OidcSignInOutcome,
  type PendingOidcRequest,
  type SignInOptions,
} from './oidc-sign-in.ts';
import type { SignInLinkService } from './sign-in-link-service.ts';

/** The path the provider sends people back to, under the server's public URL. */
export const OIDC_CALLBACK_PATH = '/console/auth/oidc/callback';
/** The path that starts a single sign-on. */
export const OIDC_START_PATH = '/console/auth/oidc/';

/**
 * The database side of console single sign-on: the pending requests (kept in the database, so the
 * provider may send a person back to any instance) and the end of the flow, which signs the
 * provider's verified email in exactly as a one-time link does. Talking to the provider (discovery,
 * the code exchange, the ID token's checks) is the HTTP adapter's, through openid-client.
 */
export class OidcSignInService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly users: UserService,
    private readonly links: SignInLinkService,
  ) {}

  /** What the sign-in page offers: the button when single sign-on is set up. */
  options(): SignInOptions {
    const oidc = this.deps.config.oidc;
    return { oidc: oidc ? { name: oidc.name, url: `${publicBase(this.deps.config.publicUrl)}${OIDC_START_PATH}` } : null };
  }

  /** Where the provider returns people: `<public_url>/console/auth/oidc/callback`. */
  redirectUri(): string {
    return `${publicBase(this.deps.config.publicUrl)}${OIDC_CALLBACK_PATH}`;
  }

  /** Keeps a request for its return; only the state's hash is the key, as for link codes. */
  async remember(pending: PendingOidcRequest): Promise<void> {
    const now = this.deps.clock.now();
    // rows keyed by a fresh random state: no rule to check, nothing another writer touches
    await this.deps.storage.transaction(
      async (tx) => {
        await tx.oidcRequests.deleteExpired(toIso(now));
        await tx.oidcRequests.insert({
          stateHash: sha256(pending.state, 'hex'),
          nonce: pending.nonce,
          codeVerifier: pending.codeVerifier,
          created: toIso(now),
          expiresAt: toIso(new Date(now.getTime() + OIDC_REQUEST_MINUTES * 60_000)),
        });
      },
      { withoutWriteLock: true },
    );
  }

  /** The request a returning state belongs to, once: a replayed or stale state finds nothing. */
  take(state: string): Promise<{ nonce: string; codeVerifier: string } | undefined> {
    return this.deps.storage.transaction((tx) => tx.oidcRequests.take(sha256(state, 'hex'), toIso(this.deps.clock.now())), {
      withoutWriteLock: true,
    });
  }

  /**
   * Signs in the active user with the provider's verified email (case-insensitive), or with
   * `oidc_create_users` a new `user` for an unknown one: a one-time code the console exchanges
   * for its token, exactly as a link from `lectern console-url`.
   */
  async signIn(identity: OidcIdentity): Promise<OidcSignInOutcome> {
    let user = await this.users.findByEmail(identity.email);
    if (!user) {
      if (!this.deps.config.oidc?.createUsers) return { error: 'unknown_user' };
      const ctx = { actor: systemActor, requestId: this.deps.ids.prefixed('req_') };
      const name = identity.name?.trim() || identity.email.slice(0, identity.email.indexOf('@'));
      await this.users.create(ctx, { email: identity.email, name: name.slice(0, 200), role: 'user' });
      user = await this.users.findByEmail(identity.email);
      if (!user) return { error: 'sign_in_failed' };
    }
    if (!user.view.is_active) return { error: 'inactive_user' };
    return { code: (await this.links.issue(user)).code };
  }
}

const publicBase = (publicUrl: string) => publicUrl.replace(/\/+$/, '');
