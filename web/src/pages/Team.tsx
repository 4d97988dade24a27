import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { CreatedTeamToken, TeamToken } from '../api/types';
import { CopyBlock, ErrorNote, Field, PageTitle, TableWrap } from '../components/ui';
import { formatTime } from '../lib/format';
import { isOwner, useSession } from '../lib/session';

const LEVELS: TeamToken['level'][] = ['viewer', 'admin', 'owner'];

export function TeamPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [level, setLevel] = useState<TeamToken['level']>('viewer');
  const [created, setCreated] = useState<CreatedTeamToken | null>(null);
  const list = useQuery({
    queryKey: ['team'],
    queryFn: () => call(api.GET('/api/v1/team/tokens', { params: { query: { per_page: 100 } } })),
  });
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v1/team/tokens', { body: { name: name.trim(), level } })),
    onSuccess: (t) => {
      setCreated(t);
      setName('');
      return queryClient.invalidateQueries({ queryKey: ['team'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      call(api.DELETE('/api/v1/team/tokens/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['team'] }),
  });
  const owner = isOwner(session);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <PageTitle>Team</PageTitle>
      <p className="muted">
        Team tokens (<code>cma_…</code>) sign in here and call the admin API: owners manage the
        team, admins change everything else, viewers only read.
      </p>
      {!owner && <p className="notice">Only owner tokens create and revoke team tokens.</p>}
      {created && (
        <section className="card once" aria-labelledby="team-once-title">
          <h2 id="team-once-title">New team token “{created.token.name}”: copy it now</h2>
          <p>This value is shown only once.</p>
          <CopyBlock label="Token value" text={created.plain_token} />
          <button type="button" className="secondary" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </section>
      )}
      {owner && (
        <form className="card" onSubmit={submit} aria-labelledby="team-create-title">
          <h2 id="team-create-title">New team token</h2>
          <div className="row">
            <Field label="Name">
              {(id) => <input id={id} value={name} onChange={(e) => setName(e.target.value)} />}
            </Field>
            <Field label="Level">
              {(id) => (
                <select
                  id={id}
                  value={level}
                  onChange={(e) => setLevel(e.target.value as TeamToken['level'])}
                >
                  {LEVELS.map((l) => (
                    <option key={l}>{l}</option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <button type="submit" disabled={create.isPending}>
            Create token
          </button>
          <ErrorNote error={create.error} />
        </form>
      )}
      <ErrorNote error={list.error ?? revoke.error} />
      <TableWrap caption="Team tokens">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Level</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            {owner && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {list.data?.data.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.level}</td>
              <td>{formatTime(t.created_at)}</td>
              <td>{formatTime(t.last_used_at)}</td>
              {owner && (
                <td>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Revoke ${t.name}`}
                    onClick={() => revoke.mutate(t.id)}
                  >
                    Revoke
                  </button>
                </td>
              )}
            </tr>
          ))}
          {list.data?.data.length === 0 && (
            <tr>
              <td colSpan={5}>No team tokens yet.</td>
            </tr>
          )}
        </tbody>
      </TableWrap>
    </>
  );
}
