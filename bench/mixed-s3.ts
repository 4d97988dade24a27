/**
 * s3rver in a process of its own, for bench/mixed.ts: in the load generator's process it would
 * take CPU from the scheduler that must start requests on time. Serves S3_DIR on S3_PORT with the
 * bucket S3_BUCKET (s3rver accepts only the key pair S3RVER / S3RVER); stops on SIGTERM.
 */
import S3rver from 's3rver';

const server = new S3rver({
  address: '127.0.0.1',
  port: Number(process.env.S3_PORT),
  silent: true,
  directory: process.env.S3_DIR ?? '',
  configureBuckets: [{ name: process.env.S3_BUCKET ?? 'bucket', configs: [] }],
});
await server.run();
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
