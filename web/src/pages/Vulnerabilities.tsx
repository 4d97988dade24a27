import { useState } from 'react';
import type { FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, call } from '../api/client';
import type { Severity, Vulnerability } from '../api/types';
import { PagedTable } from '../components/DataTable';
import type { Column } from '../components/DataTable';
import { PageTitle, SelectField, SeverityBadge, TextField } from '../components/ui';
import { isFeatureMissing } from '../lib/errors';
import { canWrite, hasFeature, useSession } from '../lib/session';
import { CveLink, SEVERITIES } from './AdvisoryParts';
import { ScanNow } from './ScanNow';
import { VendorAdvisories } from './VendorAdvisories';

/** The edition lacks the feature (Community): say so instead of failing. */
function NotInEdition() {
  return (
    <div className="empty card">
      <h2>Not available in this edition</h2>
      <p>
        Security advisories and vulnerabilities come with Packyard Pro and above, so they are not
        available on this server yet. With them, the versions of your packages that an advisory
        affects, and the customers who downloaded them, appear here.
      </p>
    </div>
  );
}

const COLUMNS: Column<Vulnerability>[] = [
  { header: 'Package', cell: (v) => v.package },
  {
    header: 'Advisory',
    cell: (v) => (
      <>
        <Link to={`/vulnerabilities/${encodeURIComponent(v.id)}`}>{v.title}</Link>
        <div className="muted small">{v.advisory_id}</div>
      </>
    ),
  },
  { header: 'Severity', cell: (v) => <SeverityBadge severity={v.severity} /> },
  { header: 'CVE', cell: (v) => <CveLink v={v} /> },
  { header: 'Affected versions', cell: (v) => <code>{v.affected_versions}</code> },
  { header: 'Held versions affected', cell: (v) => v.affected_registry_versions.join(', ') },
  { header: 'Customers affected', cell: (v) => v.affected_customer_count },
];

function VulnerabilityList() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pkg = params.get('package') ?? '';
  const severity = (params.get('severity') ?? '') as Severity | '';
  const [draft, setDraft] = useState(pkg);
  const list = useQuery({
    queryKey: ['vulnerabilities', pkg, severity, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(
        api.GET('/api/v1/vulnerabilities', {
          params: {
            query: {
              package: pkg || undefined,
              severity: severity || undefined,
              page,
              per_page: 25,
            },
          },
        }),
      ),
  });
  const update = (values: Record<string, string>) =>
    setParams((prev) => {
      for (const [key, value] of Object.entries(values)) {
        if (value) prev.set(key, value);
        else prev.delete(key);
      }
      if (!('page' in values)) prev.delete('page');
      return prev;
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update({ package: draft.trim().toLowerCase() });
  };
  const filtered = Boolean(pkg || severity);

  if (isFeatureMissing(list.error)) return <NotInEdition />;
  return (
    <section aria-labelledby="vulnerability-list-title">
      <h2 id="vulnerability-list-title">Affected versions in this registry</h2>
      <form
        className="inline-form"
        role="search"
        aria-label="Filter vulnerabilities"
        onSubmit={submit}
      >
        <TextField
          label="Filter by package"
          hint="vendor/name"
          type="search"
          value={draft}
          onChange={setDraft}
        />
        <SelectField
          label="Filter by severity"
          blank="Any severity"
          value={severity}
          options={SEVERITIES}
          onChange={(s) => update({ severity: s })}
        />
        <button type="submit">Apply filters</button>
        {filtered && (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDraft('');
              update({ package: '', severity: '' });
            }}
          >
            Clear filters
          </button>
        )}
      </form>
      <PagedTable
        caption="Vulnerabilities"
        what="vulnerabilities"
        list={list}
        columns={COLUMNS}
        rowKey={(v) => v.id}
        empty={
          filtered
            ? 'No vulnerability matches these filters.'
            : 'No known advisory affects your packages.'
        }
        onPage={(p) => update({ page: String(p) })}
      />
    </section>
  );
}

/**
 * Vulnerabilities (docs/advisories.md): advisories that affect versions this registry holds, with the
 * customers who downloaded them; a scan on demand; the vendor's own advisories. Pro and above.
 */
export function VulnerabilitiesPage() {
  const session = useSession();
  const available = hasFeature(session, 'vulnerabilities');
  return (
    <>
      <PageTitle>Vulnerabilities</PageTitle>
      {!available && <NotInEdition />}
      {available && canWrite(session) && <ScanNow />}
      {available && <VulnerabilityList />}
      {available && hasFeature(session, 'security_advisories') && <VendorAdvisories />}
    </>
  );
}
