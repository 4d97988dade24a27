import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api/client';
import type { Advisory, Severity } from '../api/types';
import { PagedTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { Field, FormCard, SeverityBadge, TextField } from '../components/ui';
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
  const text = (key: Exclude<keyof Draft, 'severity'>, label: string, hint?: string) => (
    <TextField
      label={label}
      hint={hint}
      error={fieldError(publish.error, key)}
      value={draft[key]}
      onChange={(v) => setDraft({ ...draft, [key]: v })}
      inputMode={key === 'link' ? 'url' : undefined}
    />
  );
  return (
    <FormCard
      title="Publish an advisory"
      level={3}
      submit="Publish advisory"
      action={publish}
      beside={
        <span role="status" className="muted">
          {publish.isSuccess && `Published ${publish.data.advisory_id}.`}
        </span>
      }
    >
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
    </FormCard>
  );
}

const COLUMNS: Column<Advisory>[] = [
  { header: 'Advisory', cell: (a) => a.advisory_id },
  { header: 'Package', cell: (a) => a.package },
  { header: 'Title', cell: (a) => a.title },
  { header: 'Severity', cell: (a) => <SeverityBadge severity={a.severity} /> },
  { header: 'CVE', cell: (a) => <CveLink v={a} /> },
  { header: 'Affected versions', cell: (a) => <code>{a.affected_versions}</code> },
  { header: 'Reported', cell: (a) => formatTime(a.reported_at) },
];

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
      <PagedTable
        caption="Advisories you published"
        what="advisories"
        list={list}
        columns={COLUMNS}
        rowKey={(a) => a.id}
        empty="You have published no advisories."
        onPage={setPage}
      />
    </section>
  );
}
