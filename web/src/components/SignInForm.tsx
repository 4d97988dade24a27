import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { ErrorNote, Loading, TextField } from './ui';
import { ApiError } from '../lib/errors';
import type { TokenStore } from '../lib/token-store';

/**
 * The sign-in page of both web apps: a `Token` field and a `Sign in` button. The token is tried
 * with `check` before `tokens` keeps it; a refused one is said in words (`forbidden` says why a
 * 403 cannot sign in here).
 */
export function SignInForm({
  heading,
  intro,
  tokens,
  check,
  forbidden,
  onSignedIn,
}: {
  heading: string;
  intro: ReactNode;
  tokens: TokenStore;
  check: (token: string) => Promise<unknown>;
  forbidden: (err: ApiError) => string;
  onSignedIn: (token: string) => void;
}) {
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
      await check(value);
      tokens.store(value);
      onSignedIn(value);
    } catch (err) {
      setError(signInError(err, forbidden));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="signin" id="main">
      <h1>{heading}</h1>
      <form onSubmit={(e) => void submit(e)} className="card" noValidate>
        <p className="muted">{intro}</p>
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

/** Why a token cannot sign in, in words. */
function signInError(err: unknown, forbidden: (err: ApiError) => string): unknown {
  if (err instanceof ApiError && err.status === 401) {
    return new Error('That token is not valid (unknown, expired or revoked).');
  }
  if (err instanceof ApiError && err.status === 403) return new Error(forbidden(err));
  return err;
}

/**
 * What stands in for the signed-in pages until they can show: the error that stopped them (with
 * `Sign out`), or a loading note while `ready` is false.
 */
export function SignedInGate({
  error,
  ready,
  what,
  onSignOut,
  children,
}: {
  error: unknown;
  ready: boolean;
  what: string;
  onSignOut: () => void;
  children: ReactNode;
}) {
  if (error) {
    return (
      <main className="center">
        <ErrorNote error={error} />
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </main>
    );
  }
  if (!ready) return <Loading what={what} />;
  return <>{children}</>;
}
