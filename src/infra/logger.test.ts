import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('the logger of background work', () => {
  it('writes JSON lines and never the secrets the request logs also hide', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').trim().split('\n'));
        done();
      },
    });
    const log = createLogger('info', sink);
    log.warn({ tenant: 'default', connection: { token: 'gho_secret', secret: 's3' } }, 'refresh');
    log.debug('below the level');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? '{}');
    expect(entry).toMatchObject({ level: 40, msg: 'refresh', tenant: 'default' });
    expect(entry.connection).toEqual({ token: '[redacted]', secret: '[redacted]' });
    expect(lines[0]).not.toContain('gho_secret');
  });

  it('redacts URL credentials inside logged errors (a sync error quoting its repository)', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const err = new Error('git fetch https://x-access-token:ghs_secret@github.com/a/b.git failed');
    createLogger('info', sink).error({ err, task: 't1' }, 'task failed');
    expect(lines.join('')).not.toContain('ghs_secret');
    expect(lines.join('')).toContain('https://[redacted]@github.com/a/b.git failed');
  });
});
