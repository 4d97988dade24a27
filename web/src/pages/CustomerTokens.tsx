import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { CreatedToken, CustomerToken } from '../api/types';
import { DataTable } from '../components/DataTable';
import {
  CopyBlock,
  ErrorNote,
  FormCard,
  SelectField,
  ShownOnce,
  TextField,
} from '../components/ui';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';
import { authJsonSnippet, composerJsonSnippet, splitList } from '../lib/snippets';

const SCOPES: CustomerToken['scope'][] = ['download', 'developer', 'admin', 'webhook'];

/** A new token's value, shown once, with what Composer needs to use it. */
export function TokenOnce({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  return (
    <ShownOnce
      title={`New token “${created.token.name}”: copy it now`}
      level={3}
      note="This value is shown only once. Packyard keeps only a digest of it."
      onDone={onDone}
    >
      <CopyBlock label="Token value" text={created.plain_token} />
      <CopyBlock label="auth.json" text={authJsonSnippet(created.composer_auth)} />
      <CopyBlock
        label="composer.json repositories"
        text={composerJsonSnippet(created.composer_auth)}
      />
    </ShownOnce>
  );
}

function CreateTokenForm({
  customerId,
  onCreated,
}: {
  customerId: string;
  onCreated: (t: CreatedToken) => void;
}) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<CustomerToken['scope']>('download');
  const [patterns, setPatterns] = useState('');
  const [expires, setExpires] = useState('');
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/customers/{id}/tokens', {
          params: { path: { id: customerId } },
          body: {
            name: name.trim(),
            scope,
            ...(splitList(patterns).length ? { package_scopes: splitList(patterns) } : {}),
            ...(expires ? { expires_at: `${expires}T23:59:59Z` } : {}),
          },
        }),
      ),
    onSuccess: (t) => {
      setName('');
      setPatterns('');
      setExpires('');
      onCreated(t);
    },
  });
  return (
    <FormCard title="New token" level={3} submit="Create token" action={create}>
      <div className="row">
        <TextField label="Name" value={name} onChange={setName} placeholder="ci" />
        <SelectField label="Scope" value={scope} options={SCOPES} onChange={setScope} />
        <TextField
          label="Restrict to"
          hint="package_scopes: names or patterns like acme/*, comma separated; empty = all granted"
          value={patterns}
          onChange={setPatterns}
        />
        <TextField
          label="Expires on"
          hint="empty = never"
          type="date"
          value={expires}
          onChange={setExpires}
        />
      </div>
    </FormCard>
  );
}

export function Tokens({ customerId }: { customerId: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const key = ['customer', customerId, 'tokens'];
  const tokens = useQuery({
    queryKey: key,
    queryFn: () =>
      call(
        api.GET('/api/v1/customers/{id}/tokens', {
          params: { path: { id: customerId }, query: { per_page: 100 } },
        }),
      ),
  });
  const act = useMutation({
    mutationFn: ({ action, tokenId }: { action: 'rotate' | 'revoke'; tokenId: string }) => {
      const params = { params: { path: { id: customerId, token_id: tokenId } } };
      return action === 'rotate'
        ? call(api.POST('/api/v1/customers/{id}/tokens/{token_id}/rotate', params))
        : call(api.DELETE('/api/v1/customers/{id}/tokens/{token_id}', params)).then(() => null);
    },
    onSuccess: (result) => {
      if (result) setCreated(result);
      return queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const onCreated = (t: CreatedToken) => {
    setCreated(t);
    void queryClient.invalidateQueries({ queryKey: key });
  };
  const writable = canWrite(session);
  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">Tokens</h2>
      {created && <TokenOnce created={created} onDone={() => setCreated(null)} />}
      {writable && <CreateTokenForm customerId={customerId} onCreated={onCreated} />}
      <ErrorNote error={tokens.error ?? act.error} />
      <DataTable
        caption="Tokens"
        rows={tokens.data?.data ?? []}
        rowKey={(t) => t.id}
        empty={tokens.data && 'No tokens yet.'}
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Scope', cell: (t) => t.scope },
          {
            header: 'Packages',
            cell: (t) => (t.package_scopes?.length ? t.package_scopes.join(', ') : 'all granted'),
          },
          { header: 'Expires', cell: (t) => formatTime(t.expires_at) },
          { header: 'Last used', cell: (t) => formatTime(t.last_used_at) },
          writable && {
            header: 'Actions',
            cell: (t) => (
              <div className="actions">
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Rotate ${t.name}`}
                  onClick={() => act.mutate({ action: 'rotate', tokenId: t.id })}
                >
                  Rotate
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Revoke ${t.name}`}
                  onClick={() => act.mutate({ action: 'revoke', tokenId: t.id })}
                >
                  Revoke
                </button>
              </div>
            ),
          },
        ]}
      />
    </section>
  );
}
