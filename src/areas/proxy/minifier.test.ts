import { describe, expect, it } from 'vitest';
import { expandVersions, readP2Document } from './minifier.js';

describe('expanding minified p2 documents (Composer MetadataMinifier::expand)', () => {
  it('inherits every key from the entry before, and "__unset" removes one', () => {
    const out = expandVersions([
      { name: 'a/b', version: '3.0.0', require: { php: '>=8.0' }, suggest: { x: 'y' } },
      { version: '2.0.0', suggest: '__unset' },
      { version: '1.0.0', require: { php: '>=5.3' } },
      { version: '0.9.0' },
    ]);
    expect(out).toEqual([
      { name: 'a/b', version: '3.0.0', require: { php: '>=8.0' }, suggest: { x: 'y' } },
      { name: 'a/b', version: '2.0.0', require: { php: '>=8.0' } },
      { name: 'a/b', version: '1.0.0', require: { php: '>=5.3' } },
      { name: 'a/b', version: '0.9.0', require: { php: '>=5.3' } },
    ]);
  });

  it('keeps one chain per package of a document, and reads unminified ones as they are', () => {
    const doc = {
      minified: 'composer/2.0',
      packages: {
        'psr/log': [{ name: 'psr/log', version: '3.0.0', type: 'library' }, { version: '2.0.0' }],
        'Monolog/Monolog': [{ name: 'monolog/monolog', version: '3.5.0', license: ['MIT'] }, {}],
      },
    };
    const read = readP2Document(doc);
    expect(read.get('psr/log')?.map((v) => v.version)).toEqual(['3.0.0', '2.0.0']);
    expect(read.get('psr/log')?.[1]).toMatchObject({ name: 'psr/log', type: 'library' });
    expect(read.get('monolog/monolog')?.[1]).toEqual({
      name: 'monolog/monolog',
      version: '3.5.0',
      license: ['MIT'],
    });
    const plain = readP2Document({ packages: { 'a/b': [{ version: '1.0.0' }, { x: '__unset' }] } });
    expect(plain.get('a/b')?.[1]).toEqual({ x: '__unset' });
  });

  it('starts again after an empty first entry, as PHP treats an empty array as false', () => {
    expect(expandVersions([{}, { version: '1.0.0' }, { time: 't' }])).toEqual([
      {},
      { version: '1.0.0' },
      { version: '1.0.0', time: 't' },
    ]);
  });

  it('refuses what is not a p2 document', () => {
    expect(() => readP2Document([])).toThrow(/packages/);
    expect(() => readP2Document({ packages: { 'a/b': 'x' } })).toThrow(/not a list/);
    expect(() => readP2Document({ minified: 'other/9', packages: {} })).toThrow(/minification/);
  });
});
