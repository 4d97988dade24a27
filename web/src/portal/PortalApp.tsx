import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { AppShell } from '../components/AppShell';
import { SignedInGate, SignInForm } from '../components/SignInForm';
import { useStoredToken } from '../lib/use-stored-token';
import { portalApi, portalToken, SIGNED_OUT_EVENT } from './client';
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

function SignIn({ info, onSignedIn }: { info?: PortalInfo; onSignedIn: (t: string) => void }) {
  return (
    <SignInForm
      heading={titleOf(info)}
      intro={
        <>
          Sign in with your Composer token (<code>pkt_…</code>). It is kept in this tab only.
        </>
      }
      tokens={portalToken}
      check={(token) =>
        call(portalApi.GET('/api/v1/me', { headers: { authorization: `Bearer ${token}` } }))
      }
      forbidden={(err) => `This token cannot sign in: ${err.message.replace(/\.$/, '')}.`}
      onSignedIn={onSignedIn}
    />
  );
}

const LINKS = [
  ['/', 'Your packages'],
  ['/setup', 'Setup'],
  ['/tokens', 'Tokens'],
] as const;

function Layout() {
  const session = usePortal();
  return (
    <AppShell
      brand={titleOf(session.info)}
      who={
        <>
          {session.me.customer.name} · {session.me.token.name} · {session.me.token.scope}
        </>
      }
      onSignOut={() => session.signOut()}
      links={LINKS}
      navLabel="Portal"
      topbarClass="portal-topbar"
    />
  );
}

/** Signing out keeps the branding, which needs no token. */
const forgetSignedIn = (queryClient: QueryClient) =>
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'portal-info' });

/** Signed in (a customer token in session storage that the server accepts) or the sign-in form. */
export function PortalApp() {
  const { token, setToken, signOut } = useStoredToken(
    portalToken,
    SIGNED_OUT_EVENT,
    forgetSignedIn,
  );
  const info = useQuery({
    queryKey: ['portal-info'],
    staleTime: Infinity,
    queryFn: () => call(portalApi.GET('/api/v1/portal')),
  });
  useBranding(info.data);

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
  return (
    <SignedInGate
      error={me.isError || info.isError ? (me.error ?? info.error) : null}
      ready={session !== null}
      what="your account"
      onSignOut={signOut}
    >
      <PortalContext.Provider value={session}>
        <Layout />
      </PortalContext.Provider>
    </SignedInGate>
  );
}
