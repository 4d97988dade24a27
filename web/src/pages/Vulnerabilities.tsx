import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../api/client';
import type { Severity, Vulnerability } from '../api/types';
import {
  ErrorNote,
  Field,
  Loading,
  PageTitle,
  Pager,
  StatusBadge,
  TableWrap,
} from '../components/ui';
import { isUnavailable } from '../lib/errors';
import { formatTime } from '../lib/format';
import { canWrite, hasFeature, useSession } from '../lib/session';
import { useDebounced } from '../lib/use-debounced';
import { PublishAdvisoryForm, SEVERITIES } from './VulnerabilityForm';

export function SeverityBadge({ severity }: { severity: Vulnerability['severity'] }) {
  return <StatusBadge status={severity ?? 'unrated'} />;
}

/** Known advisories that affect versions this registry holds, and who downloaded them. */
export function VulnerabilitiesPage() {
  const session = useSession();
  const [pkg, setPkg] = useState('');
  const [severity, setSeverity] = useState<Severity | ''>('');
  const [page, setPage] = useState(1);
  const packageFilter = useDebounced(pkg.trim().toLowerCase(), 300);
  const available = hasFeature(session, 'vulnerabilities');
  const list = useQuery({
    queryKey: ['vulnerabilities', packageFilter, severity, page],
    enabled: available,
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(
        api.GET('/api/v1/vulnerabilities', {
          params: {
            query: {
              package: packageFilter || undefined,
              severity: severity || undefined,
              page,
              per_page: 25,
            },
          },
        }),
      ),
  });
  const scan = useMutation({ mutationFn: () => call(api.POST('/api/v1/vulnerabilities/scan')) });
  const writable = canWrite(session);

  if (!available || isUnavailable(list.error)) {
    return (
      <>
        <PageTitle>Vulnerabilities</PageTitle>
        <div className="empty card">
          <h2>Not available in this edition</h2>
          <p>
            Security advisories and vulnerability scanning come with the Pro, Enterprise and Cloud
            editions.
          </p>
        </div>
      </>
    );
  }
  return (
    <>
      <PageTitle>Vulnerabilities</PageTitle>
      {writable && (
        <div className="actions">
          <button type="button" onClick={() => scan.mutate()} disabled={scan.isPending}>
            Scan now
          </button>
          {scan.isSuccess && (
            <span role="status" className="muted">
              Scan queued: follow it under <Link to="/tasks">Tasks</Link>.
            </span>
          )}
        </div>
      )}
      <ErrorNote error={scan.error} />
      <div className="row">
        <Field label="Package">
          {(id) => (
            <input
              id={id}
              value={pkg}
              placeholder="vendor/package"
              onChange={(e) => {
                setPkg(e.target.value);
                setPage(1);
              }}
            />
          )}
        </Field>
        <Field label="Severity">
          {(id) => (
            <select
              id={id}
              value={severity}
              onChange={(e) => {
                setSeverity(e.target.value as Severity | '');
                setPage(1);
              }}
            >
              <option value="">Any severity</option>
              {SEVERITIES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Loading what="vulnerabilities" />
      ) : list.data?.data.length === 0 ? (
        <div className="empty card">
          <h2>No vulnerabilities to show</h2>
          <p>
            {packageFilter || severity
              ? 'No known advisory matches these filters.'
              : 'No known advisory affects your packages.'}
          </p>
        </div>
      ) : (
        <VulnerabilityTable rows={list.data?.data ?? []} />
      )}
      <Pager pagination={list.data?.pagination} onPage={setPage} label="Vulnerabilities" />
      {writable && <PublishAdvisoryForm />}
    </>
  );
}

function VulnerabilityTable({ rows }: { rows: Vulnerability[] }) {
  return (
    <TableWrap caption="Vulnerabilities">
      <thead>
        <tr>
          <th scope="col">Advisory</th>
          <th scope="col">Package</th>
          <th scope="col">Severity</th>
          <th scope="col">Affected</th>
          <th scope="col">Versions held</th>
          <th scope="col">Customers</th>
          <th scope="col">Reported</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((v) => (
          <tr key={v.id}>
            <td>
              <Link to={`/vulnerabilities/${v.id}`}>{v.title}</Link>
              <br />
              <small className="muted">{v.cve ?? v.advisory_id}</small>
            </td>
            <td>
              <code>{v.package}</code>
            </td>
            <td>
              <SeverityBadge severity={v.severity} />
            </td>
            <td>
              <code>{v.affected_versions}</code>
            </td>
            <td>{v.affected_registry_versions.join(', ')}</td>
            <td>{v.affected_customer_count}</td>
            <td>{formatTime(v.reported_at)}</td>
          </tr>
        ))}
      </tbody>
    </TableWrap>
  );
}
