import { describe, expect, it } from 'vitest';
import { ApiError, describeError, fieldError, isFeatureMissing, isNotFound } from './errors';
import { authJsonSnippet, composerJsonSnippet, splitList } from './snippets';
import { fillDays, formatTime, isSyncing, lastDays, syncLabel } from './format';
import { graphqlWsUrl, syncPollInterval } from './live-sync';
import { previewTarget } from '../pages/ConstraintPreview';
import { auditQuery } from '../pages/Audit';
import { taskSubject } from '../pages/Tasks';
import { advisoryBody } from '../pages/VendorAdvisories';

describe('API errors in words', () => {
  it('reads the contract error body, field details included', () => {
    const err = ApiError.from(400, {
      error: 'validation_error',
      code: 'VALIDATION_ERROR',
      message: 'email: must match format "email"',
      details: [{ field: 'email', message: 'must match format "email"' }],
    });
    expect(err.status).toBe(400);
    expect(describeError(err)).toBe('Please check the form: email: must match format "email".');
  });

  it('leads with what the code means and keeps the server message', () => {
    const conflict = ApiError.from(409, { code: 'CONFLICT', message: 'Package acme/lib exists.' });
    expect(describeError(conflict)).toBe(
      'That conflicts with the current state: Package acme/lib exists.',
    );
    const viewer = ApiError.from(403, {
      code: 'FORBIDDEN',
      message: 'Viewer tokens are read-only',
    });
    expect(describeError(viewer)).toBe('Not allowed: Viewer tokens are read-only.');
  });

  it('copes with bodies that are not the contract shape, and with no answer at all', () => {
    expect(describeError(ApiError.from(502, 'Bad gateway'))).toBe('The server answered 502.');
    expect(describeError(ApiError.network(new TypeError('fetch failed')))).toBe(
      'The server could not be reached. Check your connection and try again.',
    );
    expect(describeError(new Error('Enter a token.'))).toBe('Enter a token.');
  });

  it('tells a 404 ("not there") from other errors', () => {
    expect(isNotFound(ApiError.from(404, { code: 'NOT_FOUND' }))).toBe(true);
    expect(isNotFound(ApiError.from(403, { code: 'FEATURE_NOT_AVAILABLE' }))).toBe(false);
    expect(isNotFound(ApiError.from(500, {}))).toBe(false);
    expect(isNotFound(new Error('x'))).toBe(false);
  });

  it('tells a missing edition feature apart, and reads what an error says about one field', () => {
    expect(isFeatureMissing(ApiError.from(403, { code: 'FEATURE_NOT_AVAILABLE' }))).toBe(true);
    expect(isFeatureMissing(ApiError.from(403, { code: 'FORBIDDEN' }))).toBe(false);
    const err = ApiError.from(400, {
      code: 'VALIDATION_ERROR',
      message: 'cve: must match pattern',
      details: [
        { field: 'cve', message: 'must match pattern "^CVE-[0-9]{4}-[0-9]{4,}$"' },
        { field: 'link', message: 'must match pattern "^https?://"' },
      ],
    });
    expect(fieldError(err, 'cve')).toBe('must match pattern "^CVE-[0-9]{4}-[0-9]{4,}$"');
    expect(fieldError(err, 'title')).toBeUndefined();
    expect(fieldError(new Error('x'), 'cve')).toBeUndefined();
  });
});

describe('install snippets for a new token', () => {
  const auth = { username: 'token', password: 'pkt_abc', repository_url: 'http://127.0.0.1:8080' };

  it('auth.json holds HTTP Basic for the repository host, port included', () => {
    expect(JSON.parse(authJsonSnippet(auth))).toEqual({
      'http-basic': { '127.0.0.1:8080': { username: 'token', password: 'pkt_abc' } },
    });
  });

  it('composer.json names the repository, and allows http only when it is http', () => {
    expect(JSON.parse(composerJsonSnippet(auth))).toEqual({
      repositories: [{ type: 'composer', url: 'http://127.0.0.1:8080' }],
      config: { 'secure-http': false },
    });
    const https = JSON.parse(
      composerJsonSnippet({ ...auth, repository_url: 'https://repo.example.com' }),
    );
    expect(https.config).toBeUndefined();
  });

  it('splits lists on commas and blanks', () => {
    expect(splitList(' acme/a, acme/b*  acme/c ,,')).toEqual(['acme/a', 'acme/b*', 'acme/c']);
    expect(splitList('  ')).toEqual([]);
  });
});

describe('formatting', () => {
  it('fills quiet days with zero so the chart keeps its time axis', () => {
    expect(
      fillDays('2026-01-30', '2026-02-02', [
        { date: '2026-01-31', downloads: 4 },
        { date: '2026-02-02', downloads: 1 },
      ]),
    ).toEqual([
      { date: '2026-01-30', downloads: 0 },
      { date: '2026-01-31', downloads: 4 },
      { date: '2026-02-01', downloads: 0 },
      { date: '2026-02-02', downloads: 1 },
    ]);
  });

  it('the default range is the last N days, today included', () => {
    expect(lastDays(30, new Date('2026-03-01T12:00:00Z'))).toEqual({
      from: '2026-01-31',
      to: '2026-03-01',
    });
  });

  it('times in UTC, sync states in words', () => {
    expect(formatTime('2026-11-23T21:05:09.123Z')).toBe('2026-11-23 21:05 UTC');
    expect(formatTime(null)).toBe('—');
    expect(syncLabel('running')).toBe('Syncing…');
    expect(syncLabel(null)).toBe('Never synced');
    expect(isSyncing('pending')).toBe(true);
    expect(isSyncing('ok')).toBe(false);
  });
});

describe('live sync progress', () => {
  it('polls often without a subscription, rarely with one, never when idle', () => {
    expect(syncPollInterval(false, true)).toBe(1000);
    expect(syncPollInterval(true, true)).toBe(5000);
    expect(syncPollInterval(true, false)).toBe(false);
    expect(syncPollInterval(false, false)).toBe(false);
  });

  it('subscribes on the same origin, wss behind https', () => {
    expect(graphqlWsUrl({ protocol: 'http:', host: '127.0.0.1:3000' })).toBe(
      'ws://127.0.0.1:3000/graphql',
    );
    expect(graphqlWsUrl({ protocol: 'https:', host: 'repo.example.com' })).toBe(
      'wss://repo.example.com/graphql',
    );
  });
});

describe('page logic', () => {
  it('previews a grant only for a well-formed package name; a blank constraint is *', () => {
    expect(previewTarget(' Acme/Lib ', '')).toEqual({ name: 'acme/lib', constraint: '*' });
    expect(previewTarget('acme/lib', ' ^1.0 ')).toEqual({ name: 'acme/lib', constraint: '^1.0' });
    expect(previewTarget('acme', '^1.0')).toBeNull();
    expect(previewTarget('acme/', '^1.0')).toBeNull();
  });

  it('builds the audit query from the filled-in filters only', () => {
    expect(
      auditQuery(
        { actor: ' root ', action: '', target: '', from: '2026-11-01', to: '2026-11-02' },
        3,
      ),
    ).toEqual({
      page: 3,
      per_page: 25,
      actor: 'root',
      from: '2026-11-01T00:00:00Z',
      to: '2026-11-02T23:59:59Z',
    });
  });

  it('sends an advisory with text trimmed and blank optional fields left out', () => {
    expect(
      advisoryBody({
        package: ' Acme/Lib ',
        title: ' Leak ',
        severity: '',
        affected_versions: ' <1.2 ',
        cve: ' ',
        link: '',
        description: 'Upgrade.',
      }),
    ).toEqual({
      package: 'acme/lib',
      title: 'Leak',
      affected_versions: '<1.2',
      severity: undefined,
      cve: undefined,
      link: undefined,
      description: 'Upgrade.',
    });
  });

  it("names a task's package from its payload", () => {
    expect(taskSubject({ payload: { package: 'acme/lib' } })).toBe('acme/lib');
    expect(taskSubject({ payload: {} })).toBe('');
  });
});
