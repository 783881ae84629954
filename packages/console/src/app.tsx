/** The shell: sign-in when there is no token, else the navigation the token allows and the page. */
import type { ComponentType } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { ApiError, rateLimitWait } from './api/client.ts';
import { ErrorBanner, Forbidden } from './components/error-banner.tsx';
import { Link } from './components/link.tsx';
import { ThemeToggle } from './components/theme.tsx';
import { pages, type PageEntry } from './pages/registry.ts';
import { SignInPage } from './pages/sign-in/index.tsx';
import { DEFAULT_PAGE_SIZE } from './api/list.ts';
import { navigate, pageName, place, subPaths } from './router.ts';
import { can, loadMe, me, role } from './session/me.ts';
import { forgetToken, token } from './session/token.ts';

const allowed = (page: PageEntry) =>
  (!page.scopes || page.scopes.some(can)) && (!page.roles || (role.value !== null && page.roles.includes(role.value)));

export function App() {
  const name = pageName(place.value.path);
  if (!token.value || name === 'sign-in') return <SignInPage />;
  return <SignedIn name={name} />;
}

function SignedIn({ name }: { name: string }) {
  const [error, setError] = useState<unknown>(undefined);
  const [attempt, setAttempt] = useState(0);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    setError(undefined);
    // the page's code loads while the token is checked, not after: a first load waits for one, not both
    const asked = pages.find((entry) => entry.path === name);
    if (asked) loadPage(asked).catch(() => undefined);
    loadMe().catch((caught: unknown) => {
      // a token the server no longer accepts (revoked, expired, user deactivated): sign in again
      if (caught instanceof ApiError && caught.status === 401) {
        forgetToken();
        navigate('sign-in?expired=1', { replace: true });
      } else setError(caught);
    });
  }, [token.value, attempt]);
  useEffect(() => setMenuOpen(false), [name]);

  const who = me.value;
  const page = pages.find((entry) => entry.path === name);
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Lectern</span>
        <button type="button" class="menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <span class="who">{who ? `${who.user.name} (${who.user.role})` : ''}</span>
        <ThemeToggle />
        <button
          type="button"
          onClick={() => {
            forgetToken();
            me.value = null;
            navigate('sign-in');
          }}
        >
          Sign out
        </button>
      </header>
      <nav id="nav" class={menuOpen ? 'side open' : 'side'} aria-label="Console">
        <ul>
          {who
            ? pages.filter(allowed).map((entry) => (
                <li key={entry.path}>
                  <Link to={entry.path === '' ? '/console/' : entry.path} current={entry.path === name}>
                    {entry.title}
                  </Link>
                </li>
              ))
            : null}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {rateLimitWait.value ? (
          <p class="banner warning" role="status">
            Too many requests: retrying in {rateLimitWait.value} s.
          </p>
        ) : null}
        {error ? (
          <ErrorBanner error={error} onRetry={() => setAttempt(attempt + 1)} />
        ) : !who ? (
          <p role="status">Loading…</p>
        ) : !page ? (
          <>
            <h1>Not found</h1>
            <p>
              There is no console page here. <Link to="/console/">Go to the overview</Link>.
            </p>
          </>
        ) : !allowed(page) ? (
          <>
            <h1>{page.title}</h1>
            <Forbidden />
          </>
        ) : (
          <LazyPage entry={page} />
        )}
      </main>
    </div>
  );
}

const loaded = new Map<string, ComponentType>();
const loading = new Map<string, Promise<ComponentType>>();

/** A page's code, fetched once however many ask for it (the shell early, the page when it shows). */
function loadPage(entry: PageEntry): Promise<ComponentType> {
  let promise = loading.get(entry.path);
  if (!promise) {
    promise = entry.load();
    // kept as soon as it arrives: a page shown after that renders at once, with no effect to wait for
    promise.then(
      (component) => loaded.set(entry.path, component),
      // a failed load is tried again the next time, not remembered
      () => loading.delete(entry.path),
    );
    loading.set(entry.path, promise);
  }
  return promise;
}

/**
 * Starts what the address will need before the first render: the page's code, who the token is
 * (the shell's effect then picks up the same request) and, at a list page's own address, its
 * rows (the list takes that request when it first asks for the same ones). An effect would start
 * them only after the first frame is painted, and the rows only after /me and the page's code.
 */
export function startEarly(): void {
  const name = pageName(location.pathname);
  if (!token.value || name === 'sign-in') return;
  const asked = pages.find((entry) => entry.path === name);
  if (asked) loadPage(asked).catch(() => undefined);
  loadMe().catch(() => undefined);
  if (asked?.list && !subPaths(location.pathname).length) {
    // the values the list reads from the address (list-view.tsx); extra ones only make its first call ask anew
    const values: Record<string, string> = {};
    for (const [param, value] of new URLSearchParams(location.search)) if (value) values[param] = value;
    values.page_size ||= DEFAULT_PAGE_SIZE;
    asked.list.start(values);
  }
}

function LazyPage({ entry }: { entry: PageEntry }) {
  const [, setReady] = useState(0);
  const [error, setError] = useState<unknown>(undefined);
  const Page = loaded.get(entry.path);
  // a layout effect: on a first load the page's code often arrives just after /me, and a plain
  // effect would wait for the "Loading…" frame to be painted before even listening for it
  useLayoutEffect(() => {
    document.title = `${entry.title} · Lectern`;
    if (Page) return;
    // loadPage files the component in `loaded`; this render only has to happen again
    loadPage(entry).then(
      () => setReady((n) => n + 1),
      (caught: unknown) => setError(caught),
    );
  }, [entry, Page]);
  if (error) return <ErrorBanner error={error} onRetry={() => location.reload()} />;
  if (!Page)
    return (
      <>
        <h1>{entry.title}</h1>
        <p role="status">Loading…</p>
      </>
    );
  return <Page />;
}
