import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the newcomer's map: it must name every area, and every file or folder
 * it names as the home of a rule must exist. Paths are read from `code spans` that look like
 * paths (src/…, test/…, areas/…, infra/…, http/…, graphql/…, composer/…).
 */
const doc = fs.readFileSync('docs/architecture.md', 'utf8');

function exists(ref: string): boolean {
  const clean = ref.replace(/[`'"),.:;]+$/, '').split('#')[0]!;
  for (const base of ['', 'src/']) {
    if (fs.existsSync(path.join(base, clean))) return true;
    // A module named without its extension, or a TypeScript file named as .js.
    if (fs.existsSync(path.join(base, `${clean.replace(/\.js$/, '')}.ts`))) return true;
  }
  return false;
}

describe('docs/architecture.md', () => {
  it('lists every area in its list of areas', () => {
    const list = doc.slice(doc.indexOf('Areas:'), doc.indexOf('\nweb/'));
    const areas = fs
      .readdirSync('src/areas', { withFileTypes: true })
      .filter((e) => e.isDirectory());
    const missing = areas
      .map((a) => a.name)
      .filter((name) => !new RegExp(`\\b${name}\\b`).test(list));
    expect(missing).toEqual([]);
  });

  it('names only files and folders that exist', () => {
    const refs = [...doc.matchAll(/`([^`\s]+)`/g)]
      .map((m) => m[1]!)
      .filter((r) =>
        /^(src|test|bench|scripts|web|areas|infra|http|graphql|composer)\/[\w./-]+$/.test(r),
      )
      .filter((r) => !r.includes('<') && !r.includes('*'));
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((r) => !exists(r))).toEqual([]);
  });

  it('is what the repository depends on, not a file outside it', () => {
    // The contract this project was built to lives outside the repository: nothing may cite it.
    const outside = ['decisions', 'md'].join('.');
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!['node_modules', 'dist', '.git', '.tmp', 'data'].includes(entry.name)) walk(file);
        } else if (/\.(ts|tsx|md|sh|json|yaml)$/.test(entry.name)) {
          if (fs.readFileSync(file, 'utf8').includes(outside)) hits.push(file);
        }
      }
    };
    for (const dir of ['src', 'web/src', 'test', 'bench', 'scripts', 'docs']) walk(dir);
    if (fs.readFileSync('README.md', 'utf8').includes(outside)) hits.push('README.md');
    expect(hits).toEqual([]);
  });
});
