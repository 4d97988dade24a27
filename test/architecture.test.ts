import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { cycles, importGraph, runtimeImportGraph } from './import-graph.js';

// Type-only imports count too: a type cycle is still two modules that cannot be understood apart.
const graph = importGraph(['src', 'test', 'bench', 'scripts']);

/** Every import from a module matching `from` into a module matching `to`, as "a -> b". */
function importsBetween(from: RegExp, to: RegExp): string[] {
  return [...graph].flatMap(([file, deps]) =>
    from.test(file) ? deps.filter((d) => to.test(d)).map((d) => `${file} -> ${d}`) : [],
  );
}

const runtime = runtimeImportGraph(['src']);
const AREA = /^src\/areas\/([^/]+)\//;

/** Run-time imports from one area into another, tests aside: [from area, to area, from, to]. */
function areaEdges(): [string, string, string, string][] {
  return [...runtime].flatMap(([file, deps]) => {
    const from = AREA.exec(file)?.[1];
    if (!from || /\.test\.ts$|test-helpers/.test(file)) return [];
    return deps.flatMap((dep): [string, string, string, string][] => {
      const to = AREA.exec(dep)?.[1];
      return to && to !== from ? [[from, to, file, dep]] : [];
    });
  });
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

  it("keeps each area's store private: no area loads another area's store.ts", () => {
    // Type-only imports of row types stay allowed: they load nothing and couple no behaviour.
    // An area that others read publishes a module for it (packages/catalog.ts, oauth/states.ts).
    expect(areaEdges().filter(([, , , to]) => /^src\/areas\/[^/]+\/store\.ts$/.test(to))).toEqual(
      [],
    );
  });

  it('has no two areas that load each other', () => {
    const pairs = new Set(areaEdges().map(([a, b]) => `${a} ${b}`));
    const mutual = [...pairs].filter((pair) => {
      const [a, b] = pair.split(' ');
      return a! < b! && pairs.has(`${b} ${a}`);
    });
    expect(mutual).toEqual([]);
  });

  it('runs no SQL in a service.ts (queries live in stores and modules named for them)', () => {
    const querying = fs
      .readdirSync('src/areas')
      .map((area) => path.join('src/areas', area, 'service.ts'))
      .filter(
        (file) =>
          fs.existsSync(file) &&
          /\.(selectFrom|updateTable|insertInto|deleteFrom)\(/.test(fs.readFileSync(file, 'utf8')),
      );
    expect(querying).toEqual([]);
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
