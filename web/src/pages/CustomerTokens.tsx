import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { CreatedToken, CustomerToken } from '../api/types';
import { CopyBlock, ErrorNote, Field, TableWrap } from '../components/ui';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';
import { authJsonSnippet, composerJsonSnippet, splitList } from '../lib/snippets';

const SCOPES: CustomerToken['scope'][] = ['download', 'developer', 'admin', 'webhook'];

/** A new token's value, shown once, with what Composer needs to use it. */
export function TokenOnce({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  return (
    <section className="card once" aria-labelledby="token-once-title">
      <h3 id="token-once-title">New token “{created.token.name}”: copy it now</h3>
      <p>This value is shown only once. Packyard keeps only a digest of it.</p>
      <CopyBlock label="Token value" text={created.plain_token} />
      <CopyBlock label="auth.json" text={authJsonSnippet(created.composer_auth)} />
      <CopyBlock
        label="composer.json repositories"
        text={composerJsonSnippet(created.composer_auth)}
      />
      <button type="button" className="secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="create-token-title">
      <h3 id="create-token-title">New token</h3>
      <div className="row">
        <Field label="Name">
          {(id) => (
            <input
              id={id}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="ci"
            />
          )}
        </Field>
        <Field label="Scope">
          {(id) => (
            <select
              id={id}
              value={scope}
              onChange={(e) => setScope(e.target.value as CustomerToken['scope'])}
            >
              {SCOPES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Restrict to"
          hint="package_scopes: names or patterns like acme/*, comma separated; empty = all granted"
        >
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              value={patterns}
              onChange={(e) => setPatterns(e.target.value)}
            />
          )}
        </Field>
        <Field label="Expires on" hint="empty = never">
          {(id, hint) => (
            <input
              id={id}
              type="date"
              aria-describedby={hint}
              value={expires}
              onChange={(e) => setExpires(e.target.value)}
            />
          )}
        </Field>
      </div>
      <button type="submit" disabled={create.isPending}>
        Create token
      </button>
      <ErrorNote error={create.error} />
    </form>
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
      <TableWrap caption="Tokens">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Scope</th>
            <th scope="col">Packages</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            {writable && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {tokens.data?.data.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.scope}</td>
              <td>{t.package_scopes?.length ? t.package_scopes.join(', ') : 'all granted'}</td>
              <td>{formatTime(t.expires_at)}</td>
              <td>{formatTime(t.last_used_at)}</td>
              {writable && (
                <td className="actions">
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
                </td>
              )}
            </tr>
          ))}
          {tokens.data?.data.length === 0 && (
            <tr>
              <td colSpan={6}>No tokens yet.</td>
            </tr>
          )}
        </tbody>
      </TableWrap>
    </section>
  );
}
