// better-sqlite3-multiple-ciphers ships its declarations, but its package.json "exports" do not name
// them, so TypeScript cannot find them: its API is better-sqlite3's, and key and rekey (docs/decisions/188).
declare module "better-sqlite3-multiple-ciphers" {
  import type BetterSqlite3 from "better-sqlite3";

  /** A better-sqlite3 connection that can open and write an encrypted file. */
  export interface CipherDatabase extends BetterSqlite3.Database {
    /** sqlite3_key: the key of the file this connection reads (set before its first statement). */
    key(key: Buffer): number;
    /** sqlite3_rekey: writes every page again under `key` (a plain file: outside WAL mode only). */
    rekey(key: Buffer): number;
  }

  const Database: new (filename: string, options?: BetterSqlite3.Options) => CipherDatabase;
  export default Database;
}
