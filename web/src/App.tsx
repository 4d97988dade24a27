import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { api, call, SIGNED_OUT_EVENT } from './api/client';
import { Layout } from './components/Layout';
import { SignedInGate } from './components/SignInForm';
import { SignIn } from './pages/SignIn';
import { SessionContext } from './lib/session';
import type { Session } from './lib/session';
import { adminToken } from './lib/token-store';
import { useStoredToken } from './lib/use-stored-token';

const forgetAll = (queryClient: QueryClient) => queryClient.clear();

/** Signed in (a token in session storage that the server accepts) or the sign-in form. */
export function App() {
  const { token, setToken, signOut } = useStoredToken(adminToken, SIGNED_OUT_EVENT, forgetAll);

  const who = useQuery({
    queryKey: ['session', token],
    enabled: token !== null,
    staleTime: Infinity,
    queryFn: async () => {
      const [session, license] = await Promise.all([
        call(api.GET('/api/v1/session')),
        call(api.GET('/api/v1/license')),
      ]);
      return { session, license };
    },
  });

  const session = useMemo<Session | null>(() => {
    if (!token || !who.data) return null;
    return {
      token,
      kind: who.data.session.kind,
      level: who.data.session.level,
      edition: who.data.license.edition,
      features: who.data.license.features,
      signOut,
    };
  }, [token, who.data, signOut]);

  if (!token) return <SignIn onSignedIn={setToken} />;
  return (
    <SignedInGate
      error={who.isError ? who.error : null}
      ready={session !== null}
      what="your session"
      onSignOut={signOut}
    >
      <SessionContext.Provider value={session}>
        <Layout />
      </SessionContext.Provider>
    </SignedInGate>
  );
}
