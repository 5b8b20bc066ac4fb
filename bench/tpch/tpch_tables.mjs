// TPC-H's eight tables: their schema (the spec's column types: identifiers as integer, money
// and quantities as decimal(15,2), dates as date) and the conversion of dbgen's '|'-separated
// .tbl files into one Parquet file per table, written by DuckDB.
//   node tpch_tables.mjs parquet TBL_DIR OUT_DIR    .tbl files -> OUT_DIR/<table>.parquet
//   node tpch_tables.mjs ddl NAMESPACE              CREATE TABLE statements for floe sql
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TABLES = {
  region: 'r_regionkey integer, r_name varchar, r_comment varchar',
  nation: 'n_nationkey integer, n_name varchar, n_regionkey integer, n_comment varchar',
  part: 'p_partkey integer, p_name varchar, p_mfgr varchar, p_brand varchar, p_type varchar, p_size integer, ' +
    'p_container varchar, p_retailprice decimal(15,2), p_comment varchar',
  supplier: 's_suppkey integer, s_name varchar, s_address varchar, s_nationkey integer, s_phone varchar, ' +
    's_acctbal decimal(15,2), s_comment varchar',
  partsupp: 'ps_partkey integer, ps_suppkey integer, ps_availqty integer, ps_supplycost decimal(15,2), ps_comment varchar',
  customer: 'c_custkey integer, c_name varchar, c_address varchar, c_nationkey integer, c_phone varchar, ' +
    'c_acctbal decimal(15,2), c_mktsegment varchar, c_comment varchar',
  orders: 'o_orderkey integer, o_custkey integer, o_orderstatus varchar, o_totalprice decimal(15,2), o_orderdate date, ' +
    'o_orderpriority varchar, o_clerk varchar, o_shippriority integer, o_comment varchar',
  lineitem: 'l_orderkey integer, l_partkey integer, l_suppkey integer, l_linenumber integer, l_quantity decimal(15,2), ' +
    'l_extendedprice decimal(15,2), l_discount decimal(15,2), l_tax decimal(15,2), l_returnflag varchar, ' +
    'l_linestatus varchar, l_shipdate date, l_commitdate date, l_receiptdate date, l_shipinstruct varchar, ' +
    'l_shipmode varchar, l_comment varchar',
};

async function duckdb() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const require = createRequire(join(root, 'tests', 'interop', 'package.json'));
  return import(require.resolve('@duckdb/node-api'));
}

// dbgen ends every line with a '|', which DuckDB's CSV reader sees as one more (empty) column.
export async function writeParquet(tblDir, outDir) {
  const { DuckDBInstance } = await duckdb();
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  for (const [name, columns] of Object.entries(TABLES)) {
    const spec = columns.split(', ').map((c) => {
      const at = c.indexOf(' ');
      return `'${c.slice(0, at)}': '${c.slice(at + 1)}'`;
    });
    spec.push(`'dbgen_end': 'varchar'`);
    await conn.run(`COPY (SELECT * EXCLUDE (dbgen_end) FROM read_csv('${tblDir}/${name}.tbl', delim = '|', header = false, ` +
      `columns = {${spec.join(', ')}})) TO '${outDir}/${name}.parquet' (FORMAT parquet, COMPRESSION zstd)`);
  }
}

export function ddl(namespace) {
  return Object.entries(TABLES).map(([name, columns]) => `CREATE TABLE ${namespace}.${name} (${columns});`).join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, a, b] = process.argv.slice(2);
  if (command === 'parquet') await writeParquet(a, b);
  else if (command === 'ddl') console.log(ddl(a));
  else {
    console.error('usage: node tpch_tables.mjs parquet TBL_DIR OUT_DIR | ddl NAMESPACE');
    process.exit(2);
  }
}
