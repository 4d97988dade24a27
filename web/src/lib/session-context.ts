import { createContext, useContext } from 'react';

/**
 * The context of a signed-in session and its hook, which throws outside a signed-in page
 * (`hook` names it in that error). The admin UI and the portal each make one.
 */
export function sessionContext<T>(hook: string) {
  const Context = createContext<T | null>(null);
  function useSignedIn(): T {
    const session = useContext(Context);
    if (!session) throw new Error(`${hook} outside a signed-in page`);
    return session;
  }
  return [Context, useSignedIn] as const;
}
