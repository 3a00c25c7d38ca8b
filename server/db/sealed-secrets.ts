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
    for (const { id, value } of stale(tx as unknown as Db, "users", "mfa_totp_secret")) {
      tx.update(users)
        .set({ mfaTotpSecret: openSecret(value, "mfa_totp_secret") })
        .where(eq(users.id, id))
        .run();
      sealed++;
    }
    for (const { id, value } of stale(tx as unknown as Db, "users", "memorable_word")) {
      tx.update(users)
        .set({ memorableWord: openSecret(value, "memorable_word") })
        .where(eq(users.id, id))
        .run();
      sealed++;
    }
    for (const { id, value } of stale(tx as unknown as Db, "pending_mfa_devices", "totp_secret")) {
      tx.update(pendingMfaDevices)
        .set({ totpSecret: openSecret(value, "totp_secret") })
        .where(eq(pendingMfaDevices.id, id))
        .run();
      sealed++;
    }
    for (const { id, value } of stale(tx as unknown as Db, "login_tickets", "state")) {
      tx.update(loginTickets)
        .set({ state: openSecret(value, "state") })
        .where(eq(loginTickets.id, id))
        .run();
      sealed++;
    }
  });
  return sealed;
}
