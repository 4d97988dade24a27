import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, SIGNED_OUT_EVENT } from './api/client';
import { Layout } from './components/Layout';
import { ErrorNote, Loading } from './components/ui';
import { SignIn } from './pages/SignIn';
import { SessionContext } from './lib/session';
import type { Session } from './lib/session';
import { clearToken, readToken } from './lib/token-store';

/** Signed in (a token in session storage that the server accepts) or the sign-in form. */
export function App() {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(readToken);

  const signOut = useCallback(() => {
    clearToken();
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => {
    window.addEventListener(SIGNED_OUT_EVENT, signOut);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, signOut);
  }, [signOut]);

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
  if (who.isError) {
    return (
      <main className="center">
        <ErrorNote error={who.error} />
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </main>
    );
  }
  if (!session) return <Loading what="your session" />;
  return (
    <SessionContext.Provider value={session}>
      <Layout />
    </SessionContext.Provider>
  );
}
