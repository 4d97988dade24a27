import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable, PagedTable } from './DataTable';
import type { Column } from './DataTable';
import { ApiError } from '../lib/errors';

interface Row {
  id: string;
  name: string;
}

const COLUMNS: (Column<Row> | false)[] = [
  { header: 'Name', cell: (r) => r.name, className: 'break' },
  false,
  { header: 'Actions', cell: (r) => <button type="button">Revoke {r.name}</button> },
];

describe('the shared table', () => {
  it('names its region, heads its columns, labels each cell for the phone cards', () => {
    const html = renderToStaticMarkup(
      <DataTable
        caption="Tokens"
        columns={COLUMNS}
        rows={[{ id: '1', name: 'ci' }]}
        rowKey={(r) => r.id}
      />,
    );
    expect(html).toContain(
      '<div class="table-wrap cards-on-phone" role="region" aria-label="Tokens" tabindex="0">',
    );
    expect(html).toContain('<caption class="visually-hidden">Tokens</caption>');
    expect(html).toContain('<th scope="col">Name</th><th scope="col">Actions</th></tr>');
    expect(html).toContain('<td class="break" data-label="Name"><div class="cell">ci</div></td>');
    expect(html).toContain('<td data-label="Actions"><div class="cell"><button');
  });

  it('says it is empty across the shown columns; a scrolling table has no card labels', () => {
    const html = renderToStaticMarkup(
      <DataTable
        caption="Tokens"
        narrow="scroll"
        columns={COLUMNS}
        rows={[]}
        rowKey={(r) => r.id}
        empty="No tokens yet."
      />,
    );
    expect(html).toContain('<div class="table-wrap" role="region"');
    expect(html).toContain('<tr><td colSpan="2">No tokens yet.</td></tr>');
    expect(html).not.toContain('data-label');
    const quiet = renderToStaticMarkup(
      <DataTable caption="Tokens" columns={COLUMNS} rows={[]} rowKey={(r) => r.id} />,
    );
    expect(quiet).toContain('<tbody></tbody>');
  });

  it('pages a list: loading first, then the rows and the pager; errors in words', () => {
    const props = { caption: 'Customers', what: 'customers', columns: COLUMNS, onPage: () => {} };
    const rowKey = (r: Row) => r.id;
    const loading = renderToStaticMarkup(
      <PagedTable {...props} rowKey={rowKey} list={{ isPending: true, error: null }} />,
    );
    expect(loading).toContain('Loading customers…');
    expect(loading).not.toContain('<table');
    const page = renderToStaticMarkup(
      <PagedTable
        {...props}
        rowKey={rowKey}
        list={{
          isPending: false,
          error: null,
          data: {
            data: [{ id: '1', name: 'Initech' }],
            pagination: { page: 1, per_page: 25, total: 1, total_pages: 1 },
          },
        }}
      />,
    );
    expect(page).toContain('<div class="cell">Initech</div>');
    expect(page).toContain('<nav class="pager" aria-label="Customers pages">');
    const failed = renderToStaticMarkup(
      <PagedTable
        {...props}
        rowKey={rowKey}
        list={{ isPending: false, error: ApiError.from(500, { code: 'INTERNAL_ERROR' }) }}
      />,
    );
    expect(failed).toContain('role="alert">Something went wrong on the server');
  });
});
