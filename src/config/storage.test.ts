import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/srv/packyard', ...env });

describe('STORAGE_URL', () => {
  it('defaults to the archives folder under DATA_DIR', () => {
    expect(load({}).storage).toEqual({ kind: 'fs', root: '/srv/packyard/archives' });
    expect(load({ STORAGE_URL: 'file:///mnt/archives/' }).storage).toEqual({
      kind: 'fs',
      root: '/mnt/archives',
    });
  });

  it('reads an S3 bucket, its prefix, endpoint, region and keys', () => {
    const config = load({
      STORAGE_URL: 's3://my-bucket/packyard/archives/',
      AWS_ACCESS_KEY_ID: 'AKIA1',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_REGION: 'eu-central-1',
      S3_ENDPOINT: 'http://minio:9000/',
    });
    expect(config.storage).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'packyard/archives',
      region: 'eu-central-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      accessKeyId: 'AKIA1',
      secretAccessKey: 'secret',
    });
    // AWS itself: virtual-hosted buckets, the SDK's credential chain.
    expect(load({ STORAGE_URL: 's3://my-bucket' }).storage).toMatchObject({
      prefix: '',
      region: 'us-east-1',
      endpoint: null,
      forcePathStyle: false,
      accessKeyId: null,
    });
    expect(
      load({
        STORAGE_URL: 's3://b-1/x',
        S3_ENDPOINT: 'https://r2.test',
        S3_FORCE_PATH_STYLE: 'off',
      }).storage,
    ).toMatchObject({ forcePathStyle: false });
  });

  it.each([
    ['gs://bucket/x', /STORAGE_URL must start with s3:\/\/ or file:\/\//],
    ['not a url', /STORAGE_URL must be s3:\/\/bucket\/prefix or file:\/\/\/path/],
    ['s3://B_ad/x', /valid bucket/],
    ['s3://key:secret@bucket/x', /credentials go in AWS_ACCESS_KEY_ID/],
    ['file://host/x', /file:\/\/\/an\/absolute\/folder/],
  ])('refuses STORAGE_URL=%s with a message naming it', (value, message) => {
    expect(() => load({ STORAGE_URL: value })).toThrow(ConfigError);
    expect(() => load({ STORAGE_URL: value })).toThrow(message);
  });

  it('refuses half a key pair, a bad endpoint and a bad path-style flag', () => {
    const s3 = { STORAGE_URL: 's3://bucket/x' };
    expect(() => load({ ...s3, AWS_ACCESS_KEY_ID: 'a' })).toThrow(/must be set together/);
    expect(() => load({ ...s3, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT must be/);
    expect(() => load({ ...s3, S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});
