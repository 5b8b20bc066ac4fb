// Proves the interop harness: a file floe's C++ wrote is read by DuckDB (npm), nobody's code here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

test('DuckDB reads a CSV written by floe C++ and agrees on every CRC-32C', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-harness-'));
  try {
    const csv = join(dir, 'crc.csv');
    execFileSync(join(process.env.FLOE_BUILD_DIR, 'tests', 'interop_fixture_writer'), [csv, '1000']);
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const reader = await conn.runAndReadAll(
      `SELECT count(*)::INTEGER, sum(n)::BIGINT, max(crc)::BIGINT FROM read_csv('${csv}', header = true)`);
    const [[count, sum]] = reader.getRows();
    assert.equal(count, 1000);
    assert.equal(sum, 499500n);
    // CRC-32C of the text "0", computed independently of floe.
    const zero = await conn.runAndReadAll(`SELECT crc FROM read_csv('${csv}', header = true) WHERE n = 0`);
    assert.equal(Number(zero.getRows()[0][0]), 0x629e1ae0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
