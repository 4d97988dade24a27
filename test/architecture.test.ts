import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { cycles, importGraph } from './import-graph.js';

// Type-only imports count too: a type cycle is still two modules that cannot be understood apart.
const graph = importGraph(['src', 'test', 'bench', 'scripts']);

/** Every import from a module matching `from` into a module matching `to`, as "a -> b". */
function importsBetween(from: RegExp, to: RegExp): string[] {
  return [...graph].flatMap(([file, deps]) =>
    from.test(file) ? deps.filter((d) => to.test(d)).map((d) => `${file} -> ${d}`) : [],
  );
}

describe('imports point one way', () => {
  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps services and stores free of transport code (src/http, src/graphql)', () => {
    expect(importsBetween(/^src\/areas\/.+(service|store)\.ts$/, /^src\/(http|graphql)\//)).toEqual(
      [],
    );
  });

  it('keeps the Composer library and infra below the areas and the transports', () => {
    expect(
      importsBetween(/^src\/(composer|infra)\/(?!.*\.test\.ts$)/, /^src\/(areas|http|graphql)\//),
    ).toEqual([]);
  });

  it('sees the whole source tree (the graph is not silently empty)', () => {
    expect(graph.get('src/app.ts')).toContain('src/services.ts');
  });
});

describe('file size', () => {
  it('keeps every source file (tests and generated types aside) at 300 lines or fewer', () => {
    const long: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(file);
        } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name)) {
          const lines = fs.readFileSync(file, 'utf8').split('\n').length - 1;
          if (lines > 300) long.push(`${file}: ${lines}`);
        }
      }
    };
    walk('src');
    walk('web/src');
    walk('bench');
    expect(long).toEqual([]);
  });
});
