import { useQuery } from '@tanstack/react-query';
import { ErrorNote, Loading, PageTitle } from '../components/ui';
import { ApiError, isUnavailable } from '../lib/errors';
import { readToken } from '../lib/token-store';

interface Advisory {
  package: string;
  title: string;
  severity?: string;
  affected_versions?: string;
}

/**
 * Advisories about the registry's own packages. Its API arrives with the advisories work;
 * until then (404, or 403 in an edition without it) the page says so.
 */
export function VulnerabilitiesPage() {
  const list = useQuery({
    queryKey: ['vulnerabilities'],
    queryFn: async () => {
      // Not in the OpenAPI document yet, so not typed from it: read defensively.
      const res = await fetch('/api/v1/vulnerabilities', {
        headers: { authorization: `Bearer ${readToken() ?? ''}` },
      });
      const body: unknown = await res.json().catch(() => null);
      if (!res.ok) throw ApiError.from(res.status, body);
      const data = (body as { data?: unknown } | null)?.data;
      return Array.isArray(data) ? (data as Advisory[]) : [];
    },
  });
  return (
    <>
      <PageTitle>Vulnerabilities</PageTitle>
      {list.isPending && <Loading what="advisories" />}
      {list.isError && !isUnavailable(list.error) && <ErrorNote error={list.error} />}
      {(isUnavailable(list.error) || list.data?.length === 0) && (
        <div className="empty card">
          <h2>No vulnerabilities to show</h2>
          <p>
            {isUnavailable(list.error)
              ? 'Security advisories for your packages are not available on this server yet. When they are, affected packages and versions appear here.'
              : 'No known advisory affects your packages.'}
          </p>
        </div>
      )}
      {list.data && list.data.length > 0 && (
        <ul className="cards">
          {list.data.map((a, i) => (
            <li key={`${a.package}-${i}`} className="card">
              <h2>{a.title}</h2>
              <p>
                {a.package} {a.affected_versions} {a.severity && <strong>{a.severity}</strong>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
