import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NavLink, Outlet, useLocation } from 'react-router';
import { call } from '../api/client';
import { ErrorNote, Loading, TextField } from '../components/ui';
import { ApiError } from '../lib/errors';
import { clearToken, portalApi, readToken, SIGNED_OUT_EVENT, storeToken } from './client';
import type { PortalInfo } from './client';
import { PortalContext, titleOf, usePortal } from './session';
import type { PortalSession } from './session';

/** The vendor's accent colour on every accent of the shared styles. */
function useBranding(info: PortalInfo | undefined) {
  useEffect(() => {
    document.title = titleOf(info);
    const root = document.documentElement.style;
    if (info?.accent_color) {
      root.setProperty('--accent', info.accent_color);
      root.setProperty('--accent-dark', info.accent_color);
    } else {
      root.removeProperty('--accent');
      root.removeProperty('--accent-dark');
    }
  }, [info]);
}

/** Why a token cannot sign in, in words. */
function signInError(err: unknown): unknown {
  if (err instanceof ApiError && err.status === 401) {
    return new Error('That token is not valid (unknown, expired or revoked).');
  }
  if (err instanceof ApiError && err.status === 403) {
    return new Error(`This token cannot sign in: ${err.message.replace(/\.$/, '')}.`);
  }
  return err;
}

function SignIn({ info, onSignedIn }: { info?: PortalInfo; onSignedIn: (t: string) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = token.trim();
    if (!value) {
      setError(new Error('Enter a token.'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await call(portalApi.GET('/api/v1/me', { headers: { authorization: `Bearer ${value}` } }));
      storeToken(value);
      onSignedIn(value);
    } catch (err) {
      setError(signInError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="signin" id="main">
      <h1>{titleOf(info)}</h1>
      <form onSubmit={(e) => void submit(e)} className="card" noValidate>
        <p className="muted">
          Sign in with your Composer token (<code>pkt_…</code>). It is kept in this tab only.
        </p>
        <TextField
          label="Token"
          type="password"
          autoComplete="current-password"
          autoFocus
          value={token}
          onChange={setToken}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}

const LINKS = [
  ['/', 'Your packages'],
  ['/setup', 'Setup'],
  ['/tokens', 'Tokens'],
] as const;

function Layout() {
  const session = usePortal();
  const location = useLocation();
  // After navigating, move focus to the new page's heading (as a full page load would).
  useEffect(() => {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading && document.activeElement?.closest('nav')) heading.focus();
  }, [location.pathname]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar portal-topbar">
        <span className="brand">{titleOf(session.info)}</span>
        <span className="who">
          {session.me.customer.name} · {session.me.token.name} · {session.me.token.scope}
        </span>
        <button type="button" className="secondary" onClick={() => session.signOut()}>
          Sign out
        </button>
      </header>
      <nav className="mainnav" aria-label="Portal">
        <ul>
          {LINKS.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to} end={to === '/'}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

/** Signed in (a customer token in session storage that the server accepts) or the sign-in form. */
export function PortalApp() {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(readToken);
  const info = useQuery({
    queryKey: ['portal-info'],
    staleTime: Infinity,
    queryFn: () => call(portalApi.GET('/api/v1/portal')),
  });
  useBranding(info.data);

  const signOut = useCallback(() => {
    clearToken();
    setToken(null);
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'portal-info' });
  }, [queryClient]);

  useEffect(() => {
    window.addEventListener(SIGNED_OUT_EVENT, signOut);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, signOut);
  }, [signOut]);

  const me = useQuery({
    queryKey: ['me', token],
    enabled: token !== null,
    staleTime: Infinity,
    queryFn: () => call(portalApi.GET('/api/v1/me')),
  });

  const session = useMemo<PortalSession | null>(() => {
    if (!token || !me.data || !info.data) return null;
    return { me: me.data, info: info.data, signOut };
  }, [token, me.data, info.data, signOut]);

  if (!token) return <SignIn info={info.data} onSignedIn={setToken} />;
  if (me.isError || info.isError) {
    return (
      <main className="center">
        <ErrorNote error={me.error ?? info.error} />
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </main>
    );
  }
  if (!session) return <Loading what="your account" />;
  return (
    <PortalContext.Provider value={session}>
      <Layout />
    </PortalContext.Provider>
  );
}
