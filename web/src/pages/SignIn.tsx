import { api, call } from '../api/client';
import { SignInForm } from '../components/SignInForm';
import { adminToken } from '../lib/token-store';

export function SignIn({ onSignedIn }: { onSignedIn: (token: string) => void }) {
  return (
    <SignInForm
      heading="Packyard admin"
      intro={
        <>
          Sign in with the admin token or a team token (<code>cma_…</code>). It is kept in this tab
          only.
        </>
      }
      tokens={adminToken}
      check={(token) =>
        call(api.GET('/api/v1/session', { headers: { authorization: `Bearer ${token}` } }))
      }
      forbidden={() => 'That is a customer token. Sign in with the admin token or a team token.'}
      onSignedIn={onSignedIn}
    />
  );
}
