import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { DataTable } from '../components/DataTable';
import {
  CopyBlock,
  ErrorNote,
  FormCard,
  Loading,
  PageTitle,
  SelectField,
  ShownOnce,
  TextField,
} from '../components/ui';
import { fieldError } from '../lib/errors';
import { formatTime } from '../lib/format';
import { authJsonSnippet } from '../lib/snippets';
import { portalApi } from './client';
import type { CreatedToken, MyToken } from './client';
import { isCustomerAdmin, usePortal } from './session';

const SCOPES = ['download', 'developer'] as const;
type Scope = (typeof SCOPES)[number];

function CreateTokenForm({ onCreated }: { onCreated: (t: CreatedToken) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('download');
  const create = useMutation({
    mutationFn: () =>
      call(portalApi.POST('/api/v1/me/tokens', { body: { name: name.trim(), scope } })),
    onSuccess: (t) => {
      setName('');
      onCreated(t);
    },
  });
  return (
    <FormCard title="New token" submit="Create token" action={create}>
      <div className="row">
        <TextField
          label="Name"
          value={name}
          onChange={setName}
          placeholder="ci"
          error={fieldError(create.error, 'name')}
        />
        <SelectField label="Scope" value={scope} options={SCOPES} onChange={setScope} />
      </div>
      <p className="muted">
        <code>download</code> installs packages; <code>developer</code> may also upload versions.
      </p>
    </FormCard>
  );
}

function RevokeButton({ token, onRevoke }: { token: MyToken; onRevoke: () => void }) {
  const id = useId();
  return (
    <>
      <span id={id} className="visually-hidden">
        Token {token.name}
      </span>
      <button type="button" className="danger" aria-describedby={id} onClick={onRevoke}>
        Revoke
      </button>
    </>
  );
}

/** The customer's tokens; a customer-admin token also creates and revokes them. */
export function TokensPage() {
  const session = usePortal();
  const admin = isCustomerAdmin(session);
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const key = ['my-tokens'];
  const tokens = useQuery({
    queryKey: key,
    queryFn: () =>
      call(portalApi.GET('/api/v1/me/tokens', { params: { query: { per_page: 100 } } })),
  });
  const revoke = useMutation({
    mutationFn: (tokenId: string) =>
      call(
        portalApi.DELETE('/api/v1/me/tokens/{token_id}', {
          params: { path: { token_id: tokenId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const onCreated = (t: CreatedToken) => {
    setCreated(t);
    void queryClient.invalidateQueries({ queryKey: key });
  };
  return (
    <>
      <PageTitle>Tokens</PageTitle>
      {!admin && (
        <p className="notice">
          Your token has scope <code>{session.me.token.scope}</code>: you can see your
          company&apos;s tokens; a token of scope <code>admin</code> creates and revokes them.
        </p>
      )}
      {created && (
        <ShownOnce
          title={`New token “${created.token.name}”: copy it now`}
          note="This value is shown only once. Only a digest of it is kept."
          onDone={() => setCreated(null)}
        >
          <CopyBlock label="Token value" text={created.plain_token} />
          <CopyBlock label="auth.json" text={authJsonSnippet(created.composer_auth)} />
        </ShownOnce>
      )}
      {admin && <CreateTokenForm onCreated={onCreated} />}
      <ErrorNote error={tokens.error ?? revoke.error} />
      {tokens.isPending && <Loading what="tokens" />}
      <DataTable
        caption="Tokens"
        rows={tokens.data?.data ?? []}
        rowKey={(t) => t.id}
        empty={tokens.data && 'No tokens.'}
        columns={[
          {
            header: 'Name',
            className: 'break',
            cell: (t) => (t.id === session.me.token.id ? `${t.name} (this one)` : t.name),
          },
          { header: 'Scope', cell: (t) => t.scope },
          { header: 'Expires', cell: (t) => formatTime(t.expires_at) },
          { header: 'Last used', cell: (t) => formatTime(t.last_used_at) },
          admin && {
            header: 'Actions',
            cell: (t) => <RevokeButton token={t} onRevoke={() => revoke.mutate(t.id)} />,
          },
        ]}
      />
    </>
  );
}
