import { useState } from 'react';
import type { FormEvent } from 'react';
import { api, call } from '../api/client';
import { ErrorNote, TextField } from '../components/ui';
import { ApiError } from '../lib/errors';
import { storeToken } from '../lib/token-store';

/** Why a token cannot sign in, in words. */
function signInError(err: unknown): unknown {
  if (err instanceof ApiError && err.status === 401) {
    return new Error('That token is not valid (unknown, expired or revoked).');
  }
  if (err instanceof ApiError && err.status === 403) {
    return new Error('That is a customer token. Sign in with the admin token or a team token.');
  }
  return err;
}

export function SignIn({ onSignedIn }: { onSignedIn: (token: string) => void }) {
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
      await call(api.GET('/api/v1/session', { headers: { authorization: `Bearer ${value}` } }));
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
      <h1>Packyard admin</h1>
      <form onSubmit={(e) => void submit(e)} className="card" noValidate>
        <p className="muted">
          Sign in with the admin token or a team token (<code>cma_…</code>). It is kept in this tab
          only.
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
