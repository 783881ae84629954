/**
 * The console's OpenID Connect relying party, on panva's openid-client (a certified library): the
 * provider's metadata, the authorization request (code flow, PKCE S256, state, nonce) and the code
 * exchange with every check of the ID token, its signature included. What the flow decides about
 * people is core's (OidcSignInService); this module only speaks the protocol.
 */
import { LecternError, type Lectern, type OidcSignInOutcome } from '@lectern/core';
import * as oidc from 'openid-client';

type Settings = NonNullable<Lectern['config']['oidc']>;

/** Scopes asked for: the ID token must carry the email and whether the provider verified it. */
export const OIDC_SCOPE = 'openid email profile';

export interface SignInLogger {
  info(details: object, message?: string): void;
}

/** A refusal whose reason is for the log only: the browser learns `sign_in_failed`. */
class Refused extends Error {}

/** Loopback issuers may be plain http (development and tests); every other one is https. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export class OidcRelyingParty {
  private configuration?: Promise<oidc.Configuration>;

  constructor(
    private readonly lectern: Lectern,
    private readonly settings: Settings,
    private readonly logger?: SignInLogger,
  ) {}

  /** The provider's authorization endpoint, with a fresh request remembered in the database. */
  async authorizationUrl(): Promise<string> {
    const config = await this.providerConfiguration();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await this.lectern.oidcSignIn.remember({ state, nonce, codeVerifier });
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.lectern.oidcSignIn.redirectUri(),
      scope: OIDC_SCOPE,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).href;
  }

  /** The provider's answer (the callback's query) to where the browser goes next. */
  async finish(query: URLSearchParams): Promise<OidcSignInOutcome> {
    try {
      const state = query.get('state');
      if (!state) throw new Refused('the answer has no state');
      const pending = await this.lectern.oidcSignIn.take(state);
      if (!pending) throw new Refused('unknown, used or expired state');
      if (query.has('error')) throw new Refused(`the provider answered ${query.get('error')}: ${query.get('error_description') ?? ''}`);
      const config = await this.providerConfiguration();
      // the address the provider sent the browser to, as the token request must repeat it
      const callback = new URL(this.lectern.oidcSignIn.redirectUri());
      callback.search = query.toString();
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedNonce: pending.nonce,
        expectedState: state,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims || typeof claims.email !== 'string' || claims.email === '') throw new Refused('the ID token has no email');
      if (claims.email_verified !== true) throw new Refused(`the provider has not verified ${claims.email}`);
      const outcome = await this.lectern.oidcSignIn.signIn({
        email: claims.email,
        name: typeof claims.name === 'string' ? claims.name : undefined,
      });
      if ('error' in outcome) this.logger?.info({ email: claims.email, reason: outcome.error }, 'single sign-on refused');
      return outcome;
    } catch (error) {
      this.logger?.info({ err: error instanceof Refused ? undefined : error, reason: (error as Error).message }, 'single sign-on failed');
      return { error: 'sign_in_failed' };
    }
  }

  /**
   * The issuer's metadata, fetched on first use and kept; a provider that could not be reached is
   * asked again by the next sign-in rather than leaving the button broken until a restart.
   */
  private providerConfiguration(): Promise<oidc.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw new LecternError('service_unavailable', `The identity provider cannot be reached: ${(error as Error).message}`);
    });
    return this.configuration;
  }

  private async discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const plainHttp = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
    const config = await oidc.discovery(
      issuer,
      this.settings.clientId,
      this.settings.clientSecret,
      // HTTP Basic: what every provider's token endpoint takes, and Okta's default
      oidc.ClientSecretBasic(this.settings.clientSecret),
      plainHttp ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
    // openid-client trusts an ID token from the token endpoint's TLS by default; the signature is checked too
    oidc.enableNonRepudiationChecks(config);
    return config;
  }
}
