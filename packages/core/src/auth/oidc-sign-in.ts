/**
 * Console single sign-on through an OpenID provider (docs/identity.md): what the sign-in page is
 * offered, and the reasons a sign-in is refused, as the console's address carries them.
 */
import { z } from 'zod';

/** How long the provider may take to send a person back: the pending request is dropped after. */
export const OIDC_REQUEST_MINUTES = 10;

/** `GET /api/v2/console/sign-in-options/`: what the sign-in page offers besides a token. */
export const signInOptionsSchema = z.object({
  /** the single sign-on button: its label's name and where it leads; null when not set up */
  oidc: z.object({ name: z.string(), url: z.string() }).nullable(),
});
export type SignInOptions = z.infer<typeof signInOptionsSchema>;

/**
 * Why a single sign-on ends on the sign-in page without a code (`?error=`). Everything that is not
 * about the user (a refused or forged answer, a replayed or stale request) is `sign_in_failed`:
 * the details go to the server's log, not to the address bar.
 */
export const oidcSignInErrors = ['unknown_user', 'inactive_user', 'sign_in_failed'] as const;
export type OidcSignInError = (typeof oidcSignInErrors)[number];

/** What the relying party keeps between sending a person to the provider and their return. */
export interface PendingOidcRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The verified ID token's claims the sign-in reads. */
export interface OidcIdentity {
  email: string;
  /** the display name for a user created on first sign-in */
  name?: string | undefined;
}

/** Where the callback sends the browser: a one-time code, or the reason there is none. */
export type OidcSignInOutcome = { code: string } | { error: OidcSignInError };
