// `node scripts/check-vsix.mjs FILE.vsix`: fails when the package holds a native binary (`.node`).
// The .vsix is universal: one package for Linux, macOS and Windows and for any editor's Node ABI,
// so nothing in it may be compiled (SQLite comes from the host's node:sqlite, or the plain-file
// store stands in). `npm run package` runs it on every .vsix it makes.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
/** The end record is 22 bytes plus a comment of up to 65535. */
const END_RECORD_SEARCH = 22 + 0xffff;

/** The names of the entries in a zip file, from its central directory (a .vsix is a zip). */
export function zipEntryNames(zip) {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - END_RECORD_SEARCH); i--) {
    if (zip.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip file: no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  const start = zip.readUInt32LE(end + 16);
  if (count === 0xffff || start === 0xffffffff) throw new Error('zip64 archives are not supported');
  const names = [];
  for (let at = start, i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new Error(`damaged zip: no central directory header at byte ${at}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** The entries that are native modules. */
export function nativeBinaries(names) {
  return names.filter((name) => /\.node$/i.test(name));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node scripts/check-vsix.mjs FILE.vsix');
    process.exit(2);
  }
  const names = zipEntryNames(readFileSync(file));
  const native = nativeBinaries(names);
  if (native.length > 0) {
    console.error(`${file} holds native modules, so it would load on one OS and Node ABI only: ${native.join(', ')}. Exclude them in .vscodeignore.`);
    process.exit(1);
  }
  console.log(`${file}: ${names.length} entries, no native module`);
}
