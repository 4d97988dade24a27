import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** A real S3-compatible server (s3rver) on a temp folder, stoppable and restartable on its port. */
export interface FakeS3 {
  port: number;
  /** The settings that point Packyard at it (STORAGE_URL under `prefix`, endpoint, keys). */
  env(prefix?: string): Record<string, string>;
  /** Stops answering (connections are refused) while keeping every object. */
  stop(): Promise<void>;
  /** Answers again on the same port with the same objects. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const S3_BUCKET = 'bucket';

export async function startFakeS3(): Promise<FakeS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-s3-'));
  const make = (port: number) =>
    new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      // s3rver accepts only the key pair S3RVER / S3RVER.
      configureBuckets: [{ name: S3_BUCKET, configs: [] }],
    });
  let server: S3rver | null = make(0);
  const { port } = await server.run();
  return {
    port,
    env: (prefix = '') => ({
      STORAGE_URL: `s3://${S3_BUCKET}/${prefix}`,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'on',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    }),
    stop: async () => {
      await server?.close();
      server = null;
    },
    start: async () => {
      server = make(port);
      await server.run();
    },
    close: async () => {
      await server?.close();
      server = null;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
