// A v3 table's live files and deletion vectors, read without floe: the manifest list and
// manifests with avsc (npm), the Puffin footers and deletion-vector-v1 blobs by the decoder
// below, written from format/puffin-spec.md and the Roaring portable format (array, bitmap and
// run containers). Tests pair it with DuckDB reading the data files' rows by position.
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { bigLong } from './avsc_long.mjs';

const require = createRequire(new URL('../package.json', import.meta.url));
const avro = require('avsc');

// An Avro file's records, longs as BigInt (snapshot ids use all 63 bits), turned into Numbers
// where they are small.
function readAvro(path) {
  return new Promise((resolve, reject) => {
    const out = [];
    avro.createFileDecoder(path, {
      codecs: { deflate: (b, cb) => zlib.inflateRaw(b, cb) },
      parseHook: schema => avro.Type.forSchema(schema, { registry: { long: bigLong } }),
    }).on('data', r => out.push(r)).on('error', reject).on('end', () => resolve(out));
  });
}

const local = uri => uri.replace(/^file:\/\//, '');

// The live entries of the current snapshot of the table whose metadata file is `metadataPath`:
// { data: [{ path, records, firstRowId, sequenceNumber }], vectors: [{ path, dataFile, offset, length, records }],
//   others: [paths of other delete files], manifests: [{ path, content, firstRowId }] }.
export async function liveFiles(metadataPath) {
  const metadata = JSON.parse(readFileSync(metadataPath, 'utf8'));
  const snapshot = metadata.snapshots.find(s => s['snapshot-id'] === metadata['current-snapshot-id']);
  const list = await readAvro(local(snapshot['manifest-list']));
  const out = { data: [], vectors: [], others: [], manifests: [] };
  for (const m of list) {
    out.manifests.push({ path: m.manifest_path, content: m.content,
                         firstRowId: m.first_row_id == null ? null : Number(m.first_row_id) });
    // First row id inheritance (format/spec.md): a data file without one starts at the
    // manifest's plus the records of the data files before it that had none either.
    let inherited = m.first_row_id == null ? null : Number(m.first_row_id);
    for (const e of await readAvro(local(m.manifest_path))) {
      const f = e.data_file;
      const records = Number(f.record_count);
      let firstRowId = f.first_row_id == null ? null : Number(f.first_row_id);
      if (f.content === 0 && firstRowId === null && inherited !== null) {
        firstRowId = inherited;
        inherited += records;
      }
      if (e.status === 2) continue;  // DELETED
      if (f.content === 0) {
        // Sequence number inheritance: an ADDED entry without one has its manifest's.
        const sequenceNumber = Number(e.sequence_number ?? m.sequence_number);
        out.data.push({ path: f.file_path, records, firstRowId, sequenceNumber });
      } else if (f.content === 1 && f.file_format.toUpperCase() === 'PUFFIN') {
        out.vectors.push({ path: f.file_path, dataFile: f.referenced_data_file, offset: Number(f.content_offset),
                           length: Number(f.content_size_in_bytes), records });
      } else {
        out.others.push(f.file_path);
      }
    }
  }
  return out;
}

// The blobs a Puffin file's footer lists: "PFA1", blobs, then "PFA1" JSON length flags "PFA1".
export function puffinBlobs(path) {
  const file = readFileSync(local(path));
  const magic = Buffer.from('PFA1');
  if (!file.subarray(0, 4).equals(magic) || !file.subarray(file.length - 4).equals(magic)) {
    throw new Error(`${path}: not a Puffin file`);
  }
  const payloadLength = file.readUInt32LE(file.length - 12);
  if (file[file.length - 8] & 1) throw new Error(`${path}: compressed footer`);
  const payloadEnd = file.length - 12;
  const footer = JSON.parse(file.subarray(payloadEnd - payloadLength, payloadEnd).toString('utf8'));
  if (!file.subarray(payloadEnd - payloadLength - 4, payloadEnd - payloadLength).equals(magic)) {
    throw new Error(`${path}: no magic before the footer payload`);
  }
  return { file, blobs: footer.blobs };
}

// One 32-bit Roaring bitmap in the portable format at `buf[at]`: its values and where it ends.
function roaring32(buf, at) {
  const cookie = buf.readUInt32LE(at);
  let count, runs = null, p;
  if ((cookie & 0xffff) === 12347) {
    count = (cookie >>> 16) + 1;
    runs = buf.subarray(at + 4, at + 4 + Math.ceil(count / 8));
    p = at + 4 + runs.length;
  } else if (cookie === 12346) {
    count = buf.readUInt32LE(at + 4);
    p = at + 8;
  } else {
    throw new Error(`roaring: bad cookie ${cookie}`);
  }
  const keys = [], cards = [];
  for (let i = 0; i < count; i++, p += 4) {
    keys.push(buf.readUInt16LE(p));
    cards.push(buf.readUInt16LE(p + 2) + 1);
  }
  if (!runs || count >= 4) p += 4 * count;  // The offsets, not needed when read in order.
  const values = [];
  for (let i = 0; i < count; i++) {
    const high = keys[i] * 65536;
    if (runs && (runs[i >> 3] >> (i & 7)) & 1) {
      const n = buf.readUInt16LE(p);
      p += 2;
      for (let r = 0; r < n; r++, p += 4) {
        const start = buf.readUInt16LE(p), length = buf.readUInt16LE(p + 2);
        for (let v = start; v <= start + length; v++) values.push(high + v);
      }
    } else if (cards[i] <= 4096) {
      for (let k = 0; k < cards[i]; k++, p += 2) values.push(high + buf.readUInt16LE(p));
    } else {
      for (let w = 0; w < 1024; w++, p += 8) {
        const word = buf.readBigUInt64LE(p);
        for (let b = 0; b < 64; b++) if ((word >> BigInt(b)) & 1n) values.push(high + w * 64 + b);
      }
    }
  }
  return { values, end: p };
}

// The positions of a deletion-vector-v1 blob: length (BE), magic D1 D3 39 64, the 64-bit
// Roaring bitmap (count LE, then per 32-bit key: key LE and a 32-bit bitmap), CRC-32 (BE).
export function decodeDeletionVector(blob) {
  const length = blob.readUInt32BE(0);
  if (length !== blob.length - 8) throw new Error(`dv: length ${length} for a blob of ${blob.length} bytes`);
  if (!blob.subarray(4, 8).equals(Buffer.from([0xd1, 0xd3, 0x39, 0x64]))) throw new Error('dv: bad magic');
  const crc = blob.readUInt32BE(blob.length - 4);
  if (zlib.crc32(blob.subarray(4, blob.length - 4)) !== crc) throw new Error('dv: bad CRC');
  const body = blob.subarray(8, blob.length - 4);
  const bitmaps = Number(body.readBigUInt64LE(0));
  let p = 8;
  const positions = [];
  for (let i = 0; i < bitmaps; i++) {
    const key = body.readUInt32LE(p);
    const { values, end } = roaring32(body, p + 4);
    for (const v of values) positions.push(key * 4294967296 + v);
    p = end;
  }
  if (p !== body.length) throw new Error(`dv: ${body.length - p} bytes after the bitmap`);
  return positions;
}
