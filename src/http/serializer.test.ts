import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { IsoDateTime, Nullable } from './schemas.js';
import { serializableSchema, serializerCompiler } from './serializer.js';
import { TaskSchema } from '../areas/tasks/schema.js';

const compile = (schema: unknown) =>
  serializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' });

describe('response serializers', () => {
  it('write nullable fields and literal unions by type, without per-option validators', () => {
    const schema = Type.Object({
      name: Nullable(Type.String()),
      at: Nullable(IsoDateTime),
      level: Type.Union([Type.Literal('owner'), Type.Literal('admin')]),
      owner: Nullable(Type.Object({ id: Type.String() })),
      tags: Type.Array(Nullable(Type.Integer())),
    });
    const plain = serializableSchema(schema) as { properties: Record<string, unknown> };
    expect(plain.properties.name).toEqual({ type: ['string', 'null'] });
    expect(plain.properties.at).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(plain.properties.level).toEqual({ type: 'string' });
    expect(plain.properties.owner).toMatchObject({
      type: ['object', 'null'],
      properties: { id: { type: 'string' } },
    });
    expect(plain.properties.tags).toEqual({
      type: 'array',
      items: { type: ['integer', 'null'] },
    });
    // The documented schema itself is left as it was.
    expect(schema.properties.name).toHaveProperty('anyOf');

    const write = compile(schema);
    const at = new Date('2026-11-28T04:00:00.000Z');
    expect(
      JSON.parse(
        write({ name: null, at, level: 'admin', owner: { id: 'u1', extra: 1 }, tags: [1, null] }),
      ),
    ).toEqual({
      name: null,
      at: at.toISOString(),
      level: 'admin',
      owner: { id: 'u1' },
      tags: [1, null],
    });
    expect(
      JSON.parse(write({ name: 'x', at: null, level: 'owner', owner: null, tags: [] })),
    ).toEqual({ name: 'x', at: null, level: 'owner', owner: null, tags: [] });
    // A value of neither type is still refused, as the union refused it.
    expect(() =>
      write({ name: { not: 'text' }, at: null, level: 'owner', owner: null, tags: [] }),
    ).toThrow(TypeError);
  });

  it('leaves unions whose options one type cannot tell apart to their validators', () => {
    const twoShapes = Type.Union([
      Type.Object({ a: Type.String() }),
      Type.Object({ b: Type.Integer() }),
    ]);
    expect(serializableSchema(twoShapes)).toHaveProperty('anyOf');
    const write = compile(Type.Object({ value: twoShapes }));
    expect(JSON.parse(write({ value: { b: 2 } }))).toEqual({ value: { b: 2 } });
    expect(JSON.parse(write({ value: { a: 'x' } }))).toEqual({ value: { a: 'x' } });
  });

  it('write a task as JSON.stringify does', () => {
    const task = {
      id: 't1',
      type: 'packages.sync',
      status: 'running',
      payload: { package: 'acme/lib' },
      result: { versions: 3, skipped: [{ ref: 'tag x', reason: 'no composer.json' }] },
      error: null,
      attempts: 1,
      max_attempts: 3,
      run_after: '2026-11-28T04:00:00.000Z',
      created_at: '2026-11-28T04:00:00.000Z',
      started_at: '2026-11-28T04:00:01.000Z',
      finished_at: null,
    };
    const write = compile(TaskSchema);
    expect(JSON.parse(write(task))).toEqual(JSON.parse(JSON.stringify(task)));
  });
});
