/**
 * Sign in by pasting an API token, or by opening the one-time link `lectern console-url` prints
 * (`/console/sign-in?code=…`): the code is exchanged for a short-lived token at once and removed
 * from the address, so it is neither reused nor left in the history. When the server has single
 * sign-on set up, a button leads to the identity provider, which sends the browser back here with
 * such a code, or with `?error=` saying why not.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../../api/client.ts';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { Field, Form, text } from '../../components/form.tsx';
import { navigate, pageName, query } from '../../router.ts';
import { loadMe } from '../../session/me.ts';
import { forgetToken, rememberToken } from '../../session/token.ts';

/** The one-time code from `lectern console-url`, exchanged for a short-lived API token. */
async function exchange(code: string): Promise<string> {
  return (await unwrap(api.POST('/api/v2/console/sign-in', { body: { code } }))).token;
}

type SignInOptions = Awaited<ReturnType<typeof signInOptions>>;

const signInOptions = async () => unwrap(api.GET('/api/v2/console/sign-in-options'));

/** What a single sign-on that came back without a code means, in words. */
const SSO_ERRORS: Record<string, string> = {
  unknown_user: 'Your identity provider signed you in, but no Lectern user has your email address. Ask an administrator to add you.',
  inactive_user: 'Your identity provider signed you in, but your Lectern user is deactivated. Ask an administrator to reactivate it.',
  sign_in_failed:
    'Single sign-on did not complete: the identity provider refused, its answer could not be verified, or the sign-in was started more than 10 minutes ago or already used. Try again.',
};

async function signIn(value: string): Promise<void> {
  rememberToken(value);
  try {
    await loadMe();
  } catch (error) {
    forgetToken();
    throw error;
  }
  // back to the page that asked for a sign-in (a bookmark), else the overview
  const wanted = pageName(location.pathname) === 'sign-in' ? '/console/' : `${location.pathname}${location.search}`;
  navigate(wanted, { replace: true });
}

export function SignInPage() {
  const [linkError, setLinkError] = useState<unknown>(undefined);
  const [exchanging, setExchanging] = useState(false);
  const params = query();
  const [options, setOptions] = useState<SignInOptions | undefined>(undefined);
  const [ssoError] = useState(() => params.get('error'));
  useEffect(() => {
    // the button is a convenience: without the options the page still signs in with a token
    signInOptions()
      .then(setOptions)
      .catch(() => setOptions(undefined));
    if (ssoError) history.replaceState(null, '', '/console/sign-in');
  }, []);
  useEffect(() => {
    const fromHash = new URLSearchParams(location.hash.slice(1)).get('code');
    const code = params.get('code') ?? fromHash;
    if (!code) return;
    // the code works once: take it out of the address before anything else
    history.replaceState(null, '', '/console/sign-in');
    setExchanging(true);
    exchange(code)
      .then(signIn)
      .catch((error: unknown) => {
        setExchanging(false);
        setLinkError(error);
      });
  }, []);

  return (
    <main id="main" class="sign-in">
      <h1>Sign in</h1>
      <p>
        Sign in to the Lectern console with an API token. It is kept in this browser tab only and forgotten when you sign out or close the
        tab.
      </p>
      {params.get('expired') ? (
        <p class="banner warning" role="status">
          The server no longer accepts the token this tab held (revoked, expired or its user deactivated). Sign in again.
        </p>
      ) : null}
      {exchanging ? <p role="status">Signing in with the one-time link…</p> : null}
      {ssoError ? (
        <p class="banner error" role="alert">
          {SSO_ERRORS[ssoError] ?? SSO_ERRORS.sign_in_failed}
        </p>
      ) : null}
      {options?.oidc ? (
        <p>
          <a class="button" href={options.oidc.url}>
            Sign in with {options.oidc.name}
          </a>
        </p>
      ) : null}
      {linkError ? (
        <div>
          <p class="banner error" role="alert">
            {linkError instanceof ApiError && linkError.status < 500 && linkError.status !== 0
              ? 'This sign-in link is not valid any more: links work once and for 10 minutes. Ask for a new one with `lectern console-url`, or paste a token.'
              : null}
          </p>
          <ErrorBanner error={linkError} />
        </div>
      ) : null}
      <Form label="Sign in with an API token" submitLabel="Sign in" onSubmit={(data) => signIn(text(data, 'token'))}>
        <Field
          name="token"
          label="API token"
          type="password"
          autoComplete="off"
          spellcheck={false}
          required
          hint="Starts with lpat_. Create one with `lectern tokens create` or on the API tokens page."
        />
      </Form>
    </main>
  );
}
