import type { OutboxEvent } from './store.js';

/** A notification, written once as plain text and as simple HTML. */
export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** What a mail says: a headline, the facts, what to do, and where to look. */
interface Parts {
  subject: string;
  what: string;
  facts: [string, string][];
  todo: string[];
  link: { label: string; url: string } | null;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Mail subjects are one line, whatever the data holds. */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 200);

const str = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : v == null
        ? ''
        : JSON.stringify(v);

const METRICS: Record<string, string> = {
  bandwidth_bytes: 'archive bandwidth this month',
  storage_bytes: 'archive storage',
  packages: 'packages',
  customers: 'customers',
};

function amount(metric: string, value: unknown): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return str(value);
  if (!metric.endsWith('_bytes')) return String(n);
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[u]} (${n} bytes)`;
}

function render(parts: Parts, registry: string): ComposedMail {
  const text = [
    parts.what,
    '',
    ...parts.facts.map(([k, v]) => `${k}: ${v}`),
    '',
    'What to do:',
    ...parts.todo.map((t) => `- ${t}`),
    ...(parts.link ? ['', `${parts.link.label}: ${parts.link.url}`] : []),
    '',
    `-- Packyard at ${registry}`,
    "You get this mail because your address is in the registry's notification_emails setting.",
    '',
  ].join('\n');
  const rows = parts.facts
    .map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif">',
    `<p>${escapeHtml(parts.what)}</p>`,
    `<table cellpadding="4">${rows}</table>`,
    '<p><strong>What to do</strong></p>',
    `<ul>${parts.todo.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>`,
    parts.link
      ? `<p><a href="${escapeHtml(parts.link.url)}">${escapeHtml(parts.link.label)}</a></p>`
      : '',
    `<p style="color: #666">Packyard at ${escapeHtml(registry)}. You get this mail because your`,
    ` address is in the registry's notification_emails setting.</p>`,
    '</body></html>',
  ].join('');
  return { subject: oneLine(`[Packyard] ${parts.subject}`), text, html };
}

/**
 * The mail for one outbox event, or null when the event is not one to mail about. A
 * `package.synced` failure is mailed only when the caller has found it is the third in a row.
 */
export function composeMail(event: OutboxEvent, origin: string): ComposedMail | null {
  const d = event.data;
  const admin = `${origin}/admin`;
  switch (event.type) {
    case 'usage.warning':
    case 'usage.limit_reached': {
      const metric = str(d.metric);
      const label = METRICS[metric] ?? metric;
      const reached = event.type === 'usage.limit_reached';
      return render(
        {
          subject: reached
            ? `Plan limit reached: ${label}`
            : `${label} at ${str(d.percent)}% of the plan's limit`,
          what: reached
            ? `Your registry has reached its plan's limit of ${label}.`
            : `Your registry has used ${str(d.percent)}% of its plan's limit of ${label}.`,
          facts: [
            ['Metric', metric],
            ['Used', amount(metric, d.value)],
            ['Limit', amount(metric, d.limit)],
            ['Percent', `${str(d.percent)}%`],
          ],
          todo: reached
            ? [
                metric === 'bandwidth_bytes'
                  ? 'Archive downloads are refused (429) until the next month or a larger plan.'
                  : metric === 'storage_bytes'
                    ? 'Syncs and uploads that need more storage fail; delete unused packages or versions to free space.'
                    : `Creating more ${label} is refused until some are removed.`,
                'Change to a larger plan to lift the limit.',
              ]
            : ['Check what uses it, and change to a larger plan before the limit is reached.'],
          link: { label: 'Statistics', url: `${admin}/statistics` },
        },
        origin,
      );
    }
    case 'vulnerability.detected': {
      const pkg = str(d.package);
      const versions = Array.isArray(d.affected_versions)
        ? d.affected_versions.map(str).join(', ')
        : str(d.affected_versions);
      return render(
        {
          subject: `Security advisory ${str(d.advisory_id)} affects ${pkg}`,
          what: `A security advisory affects versions of ${pkg} that your registry holds.`,
          facts: [
            ['Package', pkg],
            ['Advisory', str(d.advisory_id)],
            ['Affected versions', versions],
          ],
          todo: [
            'Read the advisory and release a fixed version.',
            'Consider yanking the affected versions, and tell the customers who install them.',
          ],
          link: { label: 'Vulnerabilities', url: `${admin}/vulnerabilities` },
        },
        origin,
      );
    }
    case 'package.synced': {
      const pkg = str(d.package);
      return render(
        {
          subject: `${pkg} failed to sync 3 times in a row`,
          what: `The repository of ${pkg} failed to sync three times in a row; customers keep the versions synced before.`,
          facts: [
            ['Package', pkg],
            ['Last error', str(d.error) || 'unknown'],
          ],
          todo: [
            'Check that the repository still exists at its URL and that Packyard may read it (credentials, GitHub App, OAuth connection).',
            'Then sync it again (the Sync button, or POST /api/v1/packages/<name>/sync).',
            'No further mail is sent for this package until a sync succeeds and then fails three times again.',
          ],
          link: { label: pkg, url: `${admin}/packages/${pkg}` },
        },
        origin,
      );
    }
    case 'proxy.upstream_unreachable':
      return render(
        {
          subject: `Public repository unreachable: ${str(d.upstream_url)}`,
          what: 'The public Composer repository the proxy mirrors cannot be reached.',
          facts: [['Upstream', str(d.upstream_url)]],
          todo: [
            'Cached public packages are still served (their metadata possibly stale); a public package never fetched before answers 502 until the upstream is back.',
            'If it lasts, check the network from Packyard to the upstream and PROXY_UPSTREAM_URL.',
            'Another mail follows when it is reachable again.',
          ],
          link: null,
        },
        origin,
      );
    case 'proxy.upstream_recovered':
      return render(
        {
          subject: `Public repository reachable again: ${str(d.upstream_url)}`,
          what: 'The public Composer repository the proxy mirrors answers again.',
          facts: [['Upstream', str(d.upstream_url)]],
          todo: ['Nothing: public packages are fetched and revalidated as usual again.'],
          link: null,
        },
        origin,
      );
    default:
      return null;
  }
}
