import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Pager } from './Pager';
import { ErrorNote, Field, FormCard, SelectField, SeverityBadge, TextField } from './ui';
import { ApiError } from '../lib/errors';

describe('shared components', () => {
  it('labels every field: the label points at the control', () => {
    const html = renderToStaticMarkup(
      <Field label="Constraint" hint="Composer syntax">
        {(id, hint) => <input id={id} aria-describedby={hint} />}
      </Field>,
    );
    const id = /<label for="([^"]+)">Constraint<\/label>/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<input id="${id}" aria-describedby="${id}-hint"/>`);
  });

  it('announces API errors in words', () => {
    const html = renderToStaticMarkup(
      <ErrorNote error={ApiError.from(409, { code: 'CONFLICT', message: 'Already granted' })} />,
    );
    expect(html).toBe(
      '<p class="error" role="alert">That conflicts with the current state: Already granted.</p>',
    );
    expect(renderToStaticMarkup(<ErrorNote error={null} />)).toBe('');
  });

  it('pages: no previous on the first page, no next on the last', () => {
    const first = renderToStaticMarkup(
      <Pager
        label="Packages"
        onPage={() => {}}
        pagination={{ page: 1, per_page: 25, total: 10_000, total_pages: 400 }}
      />,
    );
    expect(first).toContain('Page 1 of 400 · 10000 in all');
    expect(first).toMatch(/<button type="button" disabled="">Previous page/);
    expect(first).toMatch(/<button type="button">Next page/);
    const last = renderToStaticMarkup(
      <Pager
        label="Packages"
        onPage={() => {}}
        pagination={{ page: 400, per_page: 25, total: 10_000, total_pages: 400 }}
      />,
    );
    expect(last).toMatch(/<button type="button" disabled="">Next page/);
  });

  it('joins a field error to the description, and says a severity in words', () => {
    const html = renderToStaticMarkup(
      <Field label="CVE" hint="optional" error="must match pattern">
        {(id, describedBy) => <input id={id} aria-describedby={describedBy} />}
      </Field>,
    );
    const id = /<label for="([^"]+)">CVE<\/label>/.exec(html)?.[1];
    expect(html).toContain(`aria-describedby="${id}-hint ${id}-error"`);
    expect(html).toContain(`<small id="${id}-error" class="error">must match pattern</small>`);
    expect(renderToStaticMarkup(<SeverityBadge severity="critical" />)).toBe(
      '<span class="badge severity-critical">critical</span>',
    );
    expect(renderToStaticMarkup(<SeverityBadge severity={null} />)).toContain('no severity');
  });

  it('makes text and choice fields, and a form card named by its heading', () => {
    const text = renderToStaticMarkup(
      <TextField label="CVE" hint="optional" error="bad" value="x" onChange={() => {}} required />,
    );
    const id = /<label for="([^"]+)">CVE<\/label>/.exec(text)?.[1];
    expect(text).toContain(
      `<input required="" id="${id}" aria-describedby="${id}-hint ${id}-error" aria-invalid="true" value="x"/>`,
    );
    const select = renderToStaticMarkup(
      <SelectField
        label="Status"
        blank="Any status"
        value=""
        options={['ACTIVE']}
        onChange={() => {}}
      />,
    );
    expect(select).toMatch(
      /<select id="[^"]+"><option value="" selected="">Any status<\/option><option>ACTIVE<\/option><\/select>/,
    );
    const form = renderToStaticMarkup(
      <FormCard
        title="New customer"
        submit="Create customer"
        action={{
          isPending: true,
          error: ApiError.from(409, { code: 'CONFLICT' }),
          mutate: () => {},
        }}
      >
        <p>fields</p>
      </FormCard>,
    );
    const title = /<form class="card" aria-labelledby="([^"]+)">/.exec(form)?.[1];
    expect(form).toContain(`<h2 id="${title}">New customer</h2><p>fields</p>`);
    expect(form).toContain('<button type="submit" disabled="">Create customer</button>');
    expect(form).toContain('role="alert">That conflicts with the current state');
  });
});
