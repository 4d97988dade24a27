import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { readArtifactZip, resolveArtifactVersion, unsafeName } from './zip.js';
import type { ZipLimits } from './zip.js';
import { buildZip, packageZip, withDeclaredSize } from './test-zips.js';

const NAME = 'acme/widget';
const composer = { name: NAME, description: 'A widget' };
const limits = { maxUncompressedBytes: 1024 * 1024 };

/** The VALIDATION_ERROR a promise rejects with. */
async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const app = err as AppError;
  expect(app.code).toBe('VALIDATION_ERROR');
  return app;
}

const refuse = async (zip: Buffer, expected: RegExp, opts: ZipLimits = limits) => {
  const err = await rejection(readArtifactZip(zip, NAME, opts));
  expect(err.details?.[0]?.field).toBe('body');
  expect(err.message).toMatch(expected);
};

describe('reading an artifact zip', () => {
  it('reads composer.json at the root', async () => {
    const zip = await readArtifactZip(
      packageZip(composer, { 'src/Widget.php': '<?php' }),
      NAME,
      limits,
    );
    expect(zip.composerPath).toBe('composer.json');
    expect(zip.composer).toEqual(composer);
    expect(zip.entries).toBe(2);
  });

  it('reads composer.json inside a single top-level folder, ignoring __MACOSX', async () => {
    const zip = await readArtifactZip(
      buildZip([
        { name: 'widget-1.0/' },
        { name: 'widget-1.0/composer.json', data: JSON.stringify({ name: 'Acme/Widget' }) },
        { name: 'widget-1.0/src/A.php', data: '<?php' },
        { name: '__MACOSX/widget-1.0/._composer.json', data: 'x' },
      ]),
      NAME,
      limits,
    );
    expect(zip.composerPath).toBe('widget-1.0/composer.json');
  });

  it('refuses path traversal and absolute paths', async () => {
    await refuse(
      buildZip([
        { name: 'composer.json', data: JSON.stringify(composer) },
        { name: '../evil.php' },
      ]),
      /"\.\.\/evil\.php" has a "\.\." segment \(path traversal\)/,
    );
    await refuse(
      buildZip([{ name: 'composer.json', data: JSON.stringify(composer) }, { name: 'a/../../x' }]),
      /path traversal/,
    );
    await refuse(
      buildZip([{ name: 'composer.json', data: '{}' }, { name: '/etc/cron.d/evil' }]),
      /"\/etc\/cron\.d\/evil" has an absolute path/,
    );
    await refuse(buildZip([{ name: 'C:/Windows/evil.dll' }]), /absolute path/);
    await refuse(buildZip([{ name: '..\\..\\evil.php' }]), /path traversal/);
  });

  it('refuses symbolic links, wherever they point', async () => {
    await refuse(
      buildZip([
        { name: 'composer.json', data: JSON.stringify(composer) },
        { name: 'link', data: '/etc/passwd', mode: 0o120777 },
      ]),
      /"link" is a symbolic link/,
    );
    await refuse(
      buildZip([
        { name: 'composer.json', data: JSON.stringify(composer) },
        { name: 'inside', data: 'composer.json', mode: 0o120644 },
      ]),
      /symbolic link/,
    );
    // Ordinary unix modes are fine.
    const ok = buildZip([
      { name: 'composer.json', data: JSON.stringify(composer), mode: 0o100644 },
      { name: 'bin/run', data: '#!/bin/sh', mode: 0o100755 },
    ]);
    await expect(readArtifactZip(ok, NAME, limits)).resolves.toMatchObject({ entries: 2 });
  });

  it('refuses zips that unpack beyond the limit, declared or real', async () => {
    const bomb = buildZip([
      { name: 'composer.json', data: JSON.stringify(composer) },
      { name: 'zeros.bin', zeros: 2 * 1024 * 1024 },
    ]);
    expect(bomb.length).toBeLessThan(10_000);
    await refuse(bomb, /unpacks to more than 1048576 bytes/);
    // A zip that lies about its sizes is caught when inflated.
    await refuse(withDeclaredSize(bomb, 10), /cannot be read/, limits);
  });

  it('refuses more entries than allowed', async () => {
    const many = buildZip([
      { name: 'composer.json', data: JSON.stringify(composer) },
      ...Array.from({ length: 10_000 }, (_, i) => ({ name: `f/${i}` })),
    ]);
    await refuse(many, /10001 entries; at most 10000/);
    await refuse(packageZip(composer, { a: '1', b: '2' }), /3 entries; at most 2/, {
      ...limits,
      maxEntries: 2,
    });
  });

  it('refuses unreadable and empty zips', async () => {
    await refuse(Buffer.from('not a zip at all, just text'), /not a readable zip archive/);
    await refuse(Buffer.alloc(0), /body is empty/);
    await refuse(buildZip([]), /zip is empty/);
    const zip = packageZip(composer);
    await refuse(zip.subarray(0, zip.length - 30), /not a readable zip archive/);
  });

  it('wants composer.json where Composer looks for it', async () => {
    await refuse(buildZip([{ name: 'src/A.php', data: '<?php' }]), /no composer\.json at the root/);
    await refuse(
      buildZip([
        { name: 'a/composer.json', data: JSON.stringify(composer) },
        { name: 'b/x.php', data: '<?php' },
      ]),
      /several top-level entries \(a, b\)/,
    );
    await refuse(
      buildZip([{ name: 'a/b/composer.json', data: JSON.stringify(composer) }]),
      /no composer\.json at the root of the zip or inside its single top-level folder/,
    );
  });

  it('wants a valid composer.json naming the package', async () => {
    await refuse(buildZip([{ name: 'composer.json', data: '{"name": ' }]), /not valid JSON/);
    await refuse(buildZip([{ name: 'composer.json', data: '[1]' }]), /must hold a JSON object/);
    await refuse(packageZip({ description: 'x' }), /has no "name"; it must be "acme\/widget"/);
    await refuse(
      packageZip({ name: 'evil/other' }),
      /composer\.json names "evil\/other", but this package is "acme\/widget"/,
    );
  });

  it('flags unsafe names', () => {
    expect(unsafeName('src/a..b/c.php')).toBeNull();
    expect(unsafeName('./composer.json')).toBeNull();
    expect(unsafeName('a/../b')).toMatch(/traversal/);
    expect(unsafeName('a\0b')).toMatch(/NUL/);
  });
});

describe('the version of an upload', () => {
  it('prefers ?version= over composer.json', () => {
    expect(resolveArtifactVersion({ version: '1.0.0' }, 'v2.1')).toEqual({
      version: 'v2.1',
      normalized: '2.1.0.0',
      isDev: false,
    });
    expect(resolveArtifactVersion({ version: '1.0.0-beta2' }, undefined)).toEqual({
      version: '1.0.0-beta2',
      normalized: '1.0.0.0-beta2',
      isDev: false,
    });
  });

  it('allows dev versions', () => {
    expect(resolveArtifactVersion({}, 'dev-main')).toEqual({
      version: 'dev-main',
      normalized: 'dev-main',
      isDev: true,
    });
    expect(resolveArtifactVersion({}, '2.x-dev')).toMatchObject({ isDev: true });
  });

  it('refuses a missing or invalid version', () => {
    const field = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return { field: (err as AppError).details?.[0]?.field, message: (err as Error).message };
      }
      return null;
    };
    expect(field(() => resolveArtifactVersion({}, undefined))).toEqual({
      field: 'version',
      message: expect.stringMatching(/missing: pass \?version=/),
    });
    expect(field(() => resolveArtifactVersion({ version: 3 }, undefined))?.message).toMatch(
      /must be a non-empty string/,
    );
    expect(field(() => resolveArtifactVersion({}, 'not a version!'))?.message).toMatch(
      /"not a version!" is not a valid Composer version/,
    );
  });
});
