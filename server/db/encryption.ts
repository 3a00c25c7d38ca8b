import { closeSync, openSync, readSync, statSync } from "node:fs";
import Database, { type CipherDatabase } from "better-sqlite3-multiple-ciphers";

// ASVS V6.1.1, V6.1.3, V1.8.2 (docs/decisions/188): the platform's database file is encrypted as a
// whole, pages and write-ahead log, with PLATFORM_DB_KEYS, so that a copy of the file (a backup, a
// snapshot, a disk) holds no name, address, holding or message in the clear.

/** What is in a database file before it is opened: nothing yet, SQLite's plain format, or anything else (encrypted). */
export type FileState = "absent" | "plain" | "encrypted";

// every plain SQLite file starts with these 16 bytes; an encrypted one starts with its random salt
const PLAIN_HEADER = Buffer.from("SQLite format 3\0", "latin1");

export function fileState(file: string): FileState {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return "absent";
  }
  if (size === 0) return "absent";
  const header = Buffer.alloc(PLAIN_HEADER.length);
  const fd = openSync(file, "r");
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  return header.equals(PLAIN_HEADER) ? "plain" : "encrypted";
}

/**
 * SQLCipher 4's format (AES-256-CBC with an HMAC-SHA512 per page, the key derived by
 * PBKDF2-HMAC-SHA512, 256,000 rounds, with the file's own salt), so that the `sqlcipher` tool and
 * DB Browser for SQLite open the file with the key; set on a connection before its key.
 */
function useSqlCipherFormat(sqlite: CipherDatabase): void {
  sqlite.pragma("cipher = 'sqlcipher'");
  sqlite.pragma("legacy = 4");
}

/** Whether the connection can read its file (a wrong key reads as "file is not a database"). */
function readable(sqlite: CipherDatabase): boolean {
  try {
    sqlite.prepare("select count(*) from sqlite_schema").get();
    return true;
  } catch {
    return false;
  }
}

/** What opening did to the file, for the start's log line. */
export type Opened = { sqlite: CipherDatabase; change: "created" | "encrypted" | "rekeyed" | null };

/**
 * Opens `file` with the keys of PLATFORM_DB_KEYS, the first of which encrypts: a new file is
 * created encrypted; a plain file (from before the keys were set) is encrypted in place; a file
 * encrypted with a later key of the list (one being rotated out) is encrypted again with the first.
 * A file no key opens is refused, naming no key.
 */
export function openEncrypted(file: string, keys: readonly string[]): Opened {
  if (keys.length === 0) throw new Error("PLATFORM_DB_KEYS: no key in the list");
  const state = fileState(file);
  if (state === "absent") {
    const sqlite = new Database(file);
    useSqlCipherFormat(sqlite);
    sqlite.key(Buffer.from(keys[0]!, "utf8"));
    return { sqlite, change: "created" };
  }
  if (state === "plain") {
    const sqlite = new Database(file);
    // SQLite3 Multiple Ciphers encrypts a plain file only outside WAL mode: the log is folded in first
    sqlite.pragma("journal_mode = DELETE");
    useSqlCipherFormat(sqlite);
    sqlite.rekey(Buffer.from(keys[0]!, "utf8"));
    return { sqlite, change: "encrypted" };
  }
  for (const [i, key] of keys.entries()) {
    const sqlite = new Database(file);
    useSqlCipherFormat(sqlite);
    sqlite.key(Buffer.from(key, "utf8"));
    if (!readable(sqlite)) {
      sqlite.close();
      continue;
    }
    if (i === 0) return { sqlite, change: null };
    sqlite.rekey(Buffer.from(keys[0]!, "utf8"));
    return { sqlite, change: "rekeyed" };
  }
  throw new Error(`PLATFORM_DB_KEYS: no key of the list opens ${file}`);
}

/** Opens `file` without a key; an encrypted file is refused with what to set. */
export function openPlain(file: string): CipherDatabase {
  if (file !== ":memory:" && fileState(file) === "encrypted")
    throw new Error(`${file} is encrypted (or not a database): set PLATFORM_DB_KEYS to its key`);
  return new Database(file);
}
