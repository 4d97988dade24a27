import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { TokenStore } from './token-store';

/**
 * The signed-in token of `tokens`, kept in step with the REST client: `signOut` forgets it (and
 * what `forget` clears of the query cache), as does the client's `signedOutEvent` on a 401.
 */
export function useStoredToken(
  tokens: TokenStore,
  signedOutEvent: string,
  forget: (queryClient: QueryClient) => void,
) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => tokens.read());

  const signOut = useCallback(() => {
    tokens.clear();
    setToken(null);
    forget(queryClient);
  }, [tokens, forget, queryClient]);

  useEffect(() => {
    window.addEventListener(signedOutEvent, signOut);
    return () => window.removeEventListener(signedOutEvent, signOut);
  }, [signedOutEvent, signOut]);

  return { token, setToken, signOut };
}
