import { useState } from 'react';
import type { FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { Severity } from '../api/types';
import { ErrorNote, Field, Loading, Pager, SeverityBadge, TableWrap } from '../components/ui';
import { fieldError } from '../lib/errors';
import { formatTime } from '../lib/format';
import { canWrite, useSession } from '../lib/session';
import { CveLink, SEVERITIES } from './AdvisoryParts';

interface Draft {
  package: string;
  title: string;
  severity: Severity | '';
  affected_versions: string;
  cve: string;
  link: string;
  description: string;
}

const EMPTY: Draft = {
  package: '',
  title: '',
  severity: '',
  affected_versions: '',
  cve: '',
  link: '',
  description: '',
};

/** The form as the create body: text trimmed, blank optional fields left out. */
export function advisoryBody(d: Draft) {
  const optional = (v: string) => (v.trim() ? v.trim() : undefined);
  return {
    package: d.package.trim().toLowerCase(),
    title: d.title.trim(),
    affected_versions: d.affected_versions.trim(),
    severity: d.severity || undefined,
    cve: optional(d.cve),
    link: optional(d.link),
    description: optional(d.description),
  };
}

/** `Publish advisory`: a vendor advisory about one of the registry's own packages. */
function PublishAdvisory() {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const publish = useMutation({
    mutationFn: () => call(api.POST('/api/v1/advisories', { body: advisoryBody(draft) })),
    onSuccess: async () => {
      setDraft(EMPTY);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['advisories'] }),
        queryClient.invalidateQueries({ queryKey: ['vulnerabilities'] }),
      ]);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    publish.mutate();
  };
  const text = (key: Exclude<keyof Draft, 'severity'>, label: string, hint?: string) => (
    <Field label={label} hint={hint} error={fieldError(publish.error, key)}>
      {(id, describedBy) => (
        <input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={fieldError(publish.error, key) ? true : undefined}
          value={draft[key]}
          onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
          inputMode={key === 'link' ? 'url' : undefined}
        />
      )}
    </Field>
  );
  return (
    <form className="card" onSubmit={submit} aria-labelledby="publish-advisory-title">
      <h3 id="publish-advisory-title">Publish an advisory</h3>
      <div className="row">
        {text('package', 'Package', 'a package of this registry, vendor/name')}
        {text('title', 'Title')}
        <Field label="Severity" error={fieldError(publish.error, 'severity')}>
          {(id, describedBy) => (
            <select
              id={id}
              aria-describedby={describedBy}
              value={draft.severity}
              onChange={(e) => setDraft({ ...draft, severity: e.target.value as Severity | '' })}
            >
              <option value="">not rated</option>
              {SEVERITIES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="row">
        {text('affected_versions', 'Affected versions', 'a Composer constraint, e.g. >=1.0,<1.2.3')}
        {text('cve', 'CVE', 'optional, e.g. CVE-2026-12345')}
        {text('link', 'Link', 'optional, the advisory’s web page')}
      </div>
      <Field label="Description" error={fieldError(publish.error, 'description')}>
        {(id, describedBy) => (
          <textarea
            id={id}
            rows={3}
            aria-describedby={describedBy}
            value={draft.description}
            onChange={(e) => setDraft({ ...draft, description: e.target.value })}
          />
        )}
      </Field>
      <div className="actions">
        <button type="submit" disabled={publish.isPending}>
          Publish advisory
        </button>
        <span role="status" className="muted">
          {publish.isSuccess && `Published ${publish.data.advisory_id}.`}
        </span>
      </div>
      <ErrorNote error={publish.error} />
    </form>
  );
}

/** The vendor's own advisories (`GET /advisories`), newest first, and the form to add one. */
export function VendorAdvisories() {
  const session = useSession();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['advisories', page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(api.GET('/api/v1/advisories', { params: { query: { page, per_page: 25 } } })),
  });
  return (
    <section aria-labelledby="vendor-advisories-title">
      <h2 id="vendor-advisories-title">Your advisories</h2>
      <p className="muted">
        Advisories you publish about your own packages reach the customers who can see the package
        on their next Composer run (composer audit).
      </p>
      {canWrite(session) && <PublishAdvisory />}
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Loading what="advisories" />
      ) : (
        list.data && (
          <TableWrap caption="Advisories you published">
            <thead>
              <tr>
                <th scope="col">Advisory</th>
                <th scope="col">Package</th>
                <th scope="col">Title</th>
                <th scope="col">Severity</th>
                <th scope="col">CVE</th>
                <th scope="col">Affected versions</th>
                <th scope="col">Reported</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((a) => (
                <tr key={a.id}>
                  <td>{a.advisory_id}</td>
                  <td>{a.package}</td>
                  <td>{a.title}</td>
                  <td>
                    <SeverityBadge severity={a.severity} />
                  </td>
                  <td>
                    <CveLink v={a} />
                  </td>
                  <td>
                    <code>{a.affected_versions}</code>
                  </td>
                  <td>{formatTime(a.reported_at)}</td>
                </tr>
              ))}
              {list.data.data.length === 0 && (
                <tr>
                  <td colSpan={7}>You have published no advisories.</td>
                </tr>
              )}
            </tbody>
          </TableWrap>
        )
      )}
      <Pager pagination={list.data?.pagination} onPage={setPage} label="Your advisories" />
    </section>
  );
}
