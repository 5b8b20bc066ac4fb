// Tables of floe's SQLite catalog (Iceberg's JDBC catalog tables), read with icebird through a
// loopback file server: the current metadata file of a table, its rows, its properties.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { icebergRead } from 'icebird';

// The current metadata location of `table` ("ns.name") in the catalog file `catalogDb`.
export function metadataLocation(catalogDb, table) {
  const [ns, name] = table.split('.');
  return execFileSync('/usr/bin/python3', ['-c', `
import sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute(
  "SELECT metadata_location FROM iceberg_tables WHERE table_namespace=? AND table_name=?", (sys.argv[2], sys.argv[3])).fetchone()
print(row[0])`, catalogDb, ns, name], { encoding: 'utf8' }).trim();
}

// Every row of `table`, read by icebird from `folder` (support/folder_server.mjs) serving '/'.
export async function readTable(catalogDb, folder, table) {
  const location = metadataLocation(catalogDb, table);
  const slash = location.lastIndexOf('/metadata/');
  const tableUrl = folder.base + location.slice('file://'.length, slash);
  return icebergRead({ tableUrl, metadataFileName: location.slice(slash + '/metadata/'.length) });
}

// The table's properties from its current metadata file.
export function tableProperties(catalogDb, table) {
  return JSON.parse(readFileSync(metadataLocation(catalogDb, table).slice('file://'.length), 'utf8')).properties;
}
