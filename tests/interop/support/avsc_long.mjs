// An avsc long type that reads Avro longs as BigInt: Iceberg snapshot ids and sequence numbers
// use all 63 bits, past what a JavaScript Number holds exactly. Pass it as the `long` of a
// file decoder's registry.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../package.json', import.meta.url));
const avro = require('avsc');

export const bigLong = avro.types.LongType.__with({
  fromBuffer: buf => buf.readBigInt64LE(),
  toBuffer: n => { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(n)); return b; },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: n => typeof n === 'bigint',
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});
