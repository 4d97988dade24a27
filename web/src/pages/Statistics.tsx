import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { Chart } from '../components/Chart';
import { DataTable } from '../components/DataTable';
import { ErrorNote, Loading, PageTitle, TextField } from '../components/ui';
import { fillDays, formatNumber, lastDays } from '../lib/format';

export default function StatisticsPage() {
  const initial = useMemo(() => lastDays(30), []);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const stats = useQuery({
    queryKey: ['stats', from, to],
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/api/v1/stats', { params: { query: { from, to } } })),
  });
  const perDay = useMemo(() => {
    const days = fillDays(from, to, stats.data?.by_day ?? []);
    return { labels: days.map((d) => d.date.slice(5)), values: days.map((d) => d.downloads) };
  }, [from, to, stats.data]);
  const perPackage = useMemo(() => {
    const top = [...(stats.data?.by_package ?? [])]
      .sort((a, b) => b.downloads - a.downloads)
      .slice(0, 15);
    return { labels: top.map((p) => p.name), values: top.map((p) => p.downloads), rows: top };
  }, [stats.data]);

  return (
    <>
      <PageTitle>Statistics</PageTitle>
      <form className="inline-form" onSubmit={(e) => e.preventDefault()}>
        <TextField
          label="From"
          type="date"
          value={from}
          max={to}
          onChange={(v) => v && setFrom(v)}
        />
        <TextField label="To" type="date" value={to} min={from} onChange={(v) => v && setTo(v)} />
      </form>
      <ErrorNote error={stats.error} />
      {!stats.data ? (
        <Loading what="statistics" />
      ) : (
        <>
          <dl className="totals">
            <div>
              <dt>Downloads</dt>
              <dd>{formatNumber(stats.data.total_downloads)}</dd>
            </div>
            <div>
              <dt>Packages</dt>
              <dd>{formatNumber(stats.data.packages)}</dd>
            </div>
            <div>
              <dt>Versions</dt>
              <dd>{formatNumber(stats.data.versions)}</dd>
            </div>
            <div>
              <dt>Customers</dt>
              <dd>{formatNumber(stats.data.customers)}</dd>
            </div>
          </dl>
          <section aria-labelledby="per-day-title">
            <h2 id="per-day-title">Downloads per day</h2>
            <Chart data={perDay} kind="line" title="Downloads per day" />
          </section>
          <section aria-labelledby="per-package-title">
            <h2 id="per-package-title">Downloads per package</h2>
            <Chart data={perPackage} kind="bars" title="Downloads per package" />
            <DataTable
              caption="Downloads per package"
              narrow="scroll"
              rows={perPackage.rows}
              rowKey={(p) => p.name}
              columns={[
                { header: 'Package', cell: (p) => p.name },
                { header: 'Downloads', cell: (p) => formatNumber(p.downloads) },
              ]}
            />
          </section>
        </>
      )}
    </>
  );
}
