// avsc (npm), an Avro implementation nobody here wrote: files it writes with the deflate and
// snappy codecs (snappy through hyparquet-writer's compressor, with the CRC-32 the Avro spec
// requires) are printed by `floe avro cat` with the same records; and avsc reads the manifests
// and manifest lists of a table floe wrote.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readdirSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import avro from 'avsc';
import { bigLong } from '../support/avsc_long.mjs';

const writerUrl = new URL('../node_modules/hyparquet-writer/src/snappy.js', import.meta.url);
const { snappyCompress } = await import(writerUrl);

// CRC-32 (IEEE), for the snappy codec's trailer.
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const codecs = {
  null: (buf, cb) => cb(null, buf),
  deflate: (buf, cb) => zlib.deflateRaw(buf, cb),
  snappy: (buf, cb) => {
    const body = Buffer.from(snappyCompress(new Uint8Array(buf)));
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(buf));
    cb(null, Buffer.concat([body, crc]));
  },
};

const type = avro.Type.forSchema({
  type: 'record', name: 'event', fields: [
    { name: 'id', type: 'long' },
    { name: 'name', type: ['null', 'string'], default: null },
    { name: 'score', type: 'double' },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'kind', type: { type: 'enum', name: 'kind_t', symbols: ['A', 'B', 'C'] } },
    { name: 'attrs', type: { type: 'map', values: 'int' } },
  ],
});

function records(n) {
  return Array.from({ length: n }, (_, i) => ({
    id: i * 1000003, name: i % 5 ? `n${i}` : null, score: i / 4, tags: Array(i % 3).fill(`t${i}`),
    kind: 'ABC'[i % 3], attrs: { a: i, b: i === 0 ? 0 : -i },
  }));
}

for (const codec of ['null', 'deflate', 'snappy']) {
  test(`floe avro cat reads what avsc writes with the ${codec} codec`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-avsc-'));
    try {
      const path = join(dir, `${codec}.avro`);
      const rows = records(5000);
      await new Promise((resolve, reject) => {
        // Wait for the file itself to close, not just the encoder.
        const file = createWriteStream(path).on('close', resolve).on('error', reject);
        const enc = new avro.streams.BlockEncoder(type, { codec, codecs, blockSize: 4096 });
        enc.on('error', reject).pipe(file);
        for (const r of rows) enc.write(r);
        enc.end();
      });
      const out = execFileSync(process.env.FLOE_BIN, ['avro', 'cat', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
      const got = out.trim().split('\n').map(l => JSON.parse(l));
      assert.equal(got.length, rows.length);
      for (let i = 0; i < rows.length; i++) assert.deepEqual(got[i], rows[i]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('avsc reads the manifests and manifest lists of a floe table', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-avsc-'));
  try {
    writeFileSync(join(dir, 'schema.json'), JSON.stringify({ type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', required: true, type: 'long' }, { id: 2, name: 's', required: false, type: 'string' }] }));
    writeFileSync(join(dir, 'rows.jsonl'), '{"id": 1, "s": "a"}\n{"id": 2, "s": "b"}\n');
    const wh = `file://${dir}/wh`;
    execFileSync(process.env.FLOE_BIN, ['table', 'create', 'db.t', '--warehouse', wh, '--schema', join(dir, 'schema.json'),
                                        '--partition', 'truncate(1, s)']);
    execFileSync(process.env.FLOE_BIN, ['table', 'append', 'db.t', '--warehouse', wh, join(dir, 'rows.jsonl')]);
    const metadata = join(dir, 'wh', 'db', 't', 'metadata');
    const lists = readdirSync(metadata).filter(f => f.startsWith('snap-'));
    assert.equal(lists.length, 1);
    const read = path => new Promise((resolve, reject) => {
      const out = [];
      let header;
      avro.createFileDecoder(path, {
        codecs: { deflate: (b, cb) => zlib.inflateRaw(b, cb) },
        // Snapshot ids use all 63 bits: read longs as BigInt.
        parseHook: schema => avro.Type.forSchema(schema, { registry: { long: bigLong } }),
      })
        .on('metadata', (t, codec, h) => { header = { type: t, codec, meta: h.meta }; })
        .on('data', r => out.push(r)).on('error', reject).on('end', () => resolve({ header, out }));
    });
    const list = await read(join(metadata, lists[0]));
    assert.equal(list.header.type.name, 'manifest_file');
    assert.equal(list.out.length, 1);
    assert.equal(list.out[0].added_files_count, 2);
    assert.equal(list.out[0].partitions.length, 1);
    const manifest = await read(list.out[0].manifest_path.replace('file://', ''));
    assert.equal(manifest.header.type.name, 'manifest_entry');
    assert.equal(manifest.header.meta.content.toString(), 'data');
    assert.deepEqual(manifest.out.map(e => e.data_file.partition.s_trunc).sort(), ['a', 'b']);
    assert.deepEqual(manifest.out.map(e => Number(e.data_file.record_count)), [1, 1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
