// Starts s3rver (a foreign S3 server) on a free loopback port for floe's S3 tests and bench.
// Usage: node s3rver_launch.mjs DIRECTORY BUCKET
// Prints "PORT <n>" once listening; stops when its stdin closes or on SIGTERM.
import S3rver from 's3rver';

const [directory, bucket = 'floe'] = process.argv.slice(2);
if (!directory) {
  console.error('usage: s3rver_launch.mjs DIRECTORY [BUCKET]');
  process.exit(2);
}
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  vhostBuckets: false,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.stdout.write(`PORT ${port}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close();
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
