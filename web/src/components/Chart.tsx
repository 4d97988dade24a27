import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Axis steps in whole numbers: counts and day indexes have no fractions. */
const WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1e6, 1e7];

export interface Series {
  labels: string[];
  values: number[];
}

/** A uPlot line (per day) or bar (per package) chart; the same numbers are in a table beside it. */
export function Chart({
  data,
  kind,
  title,
}: {
  data: Series;
  kind: 'line' | 'bars';
  title: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el || data.labels.length === 0) return;
    const xs = data.labels.map((_, i) => i);
    const width = Math.max(280, el.clientWidth);
    const plot = new uPlot(
      {
        width,
        height: 240,
        legend: { show: false },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: {
          x: {
            time: false,
            // Bars sit between half steps so the first and last are not cut in half.
            range: (): uPlot.Range.MinMax =>
              kind === 'bars' ? [-0.5, xs.length - 0.5] : [0, Math.max(1, xs.length - 1)],
          },
          y: { range: (_u, _min, max): uPlot.Range.MinMax => [0, Math.max(1, max)] },
        },
        axes: [
          {
            values: (_u, splits) =>
              splits.map((i) => (Number.isInteger(i) ? (data.labels[i] ?? '') : '')),
            incrs: WHOLE,
            space: kind === 'bars' ? 30 : 60,
          },
          { size: 50, incrs: WHOLE, values: (_u, splits) => splits.map((n) => String(n)) },
        ],
        series: [
          {},
          {
            label: title,
            stroke: '#2b5cab',
            width: 2,
            fill: kind === 'bars' ? '#2b5cab' : 'rgba(43,92,171,0.12)',
            points: { show: kind === 'line' && data.labels.length <= 62 },
            ...(kind === 'bars' ? { paths: uPlot.paths.bars?.({ size: [0.6, 60] }) } : {}),
          },
        ],
      },
      [xs, data.values],
      el,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(280, el.clientWidth), height: 240 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, kind, title]);
  if (data.labels.length === 0) return <p className="muted">No downloads in this range.</p>;
  return <div ref={host} className="chart" role="img" aria-label={title} />;
}
