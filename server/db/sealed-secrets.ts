import { eq, sql } from "drizzle-orm";
import { isSealedWithCurrentKey, openSecret } from "../lib/secrets-at-rest";
import type { Db } from "./connection";
import { loginTickets, pendingMfaDevices, users } from "./schema";

// docs/decisions/172: at every start, after the migrations, each sealed column's values that are
// not sealed with the key that seals now (written before encryption, or under a key being rotated
// out) are read and written again, sealed with it. Idempotent: a second run finds nothing to do.

type Stored = { id: number; value: string };

/** The rows of a column whose stored value is there and not sealed with the current key. */
function stale(db: Db, table: string, column: string): Stored[] {
  const rows = db.all<Stored>(
    sql`select id, ${sql.identifier(column)} as value from ${sql.identifier(table)} where ${sql.identifier(column)} is not null`,
  );
  return rows.filter((row) => !isSealedWithCurrentKey(row.value));
}

/** Seals again every secret not sealed with the current key; answers how many values were sealed. */
export function resealSecrets(db: Db): number {
  let sealed = 0;
  db.transaction((tx) => {
    // each stale value opened and written back through its column's type, which seals it
    const reseal = (table: string, column: string, write: (id: number, plain: string) => void) => {
      for (const { id, value } of stale(tx as unknown as Db, table, column)) {
        write(id, openSecret(value, column));
        sealed++;
      }
    };
    reseal("users", "mfa_totp_secret", (id, plain) =>
      tx.update(users).set({ mfaTotpSecret: plain }).where(eq(users.id, id)).run(),
    );
    reseal("users", "memorable_word", (id, plain) =>
      tx.update(users).set({ memorableWord: plain }).where(eq(users.id, id)).run(),
    );
    reseal("pending_mfa_devices", "totp_secret", (id, plain) =>
      tx.update(pendingMfaDevices).set({ totpSecret: plain }).where(eq(pendingMfaDevices.id, id)).run(),
    );
    reseal("login_tickets", "state", (id, plain) =>
      tx.update(loginTickets).set({ state: plain }).where(eq(loginTickets.id, id)).run(),
    );
  });
  return sealed;
}
