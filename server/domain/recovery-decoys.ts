import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/connection";
import { platformKeys } from "../db/schema";
import { DEFAULT_SECURITY_QUESTIONS } from "./security-questions";

// What an unknown username is shown (docs/decisions/163): the step a real account would get, so
// that nothing tells accounts apart. Chosen from the username with a key of the database's own, so
// the same username always gets the same step and questions, and without the key nobody can work
// out which step an unknown username "should" get.

/** Of 256, how many unknown usernames are shown the questions step (three in four); the rest a code step. */
export const DECOY_QUESTIONS_OUT_OF_256 = 192;

const KEY_NAME = "recovery_decoys";

export type Decoy = { method: "questions"; questions: [string, string] } | { method: "code" };

/** The step and questions an unknown username is shown, from the key and the username's lower-case form. */
export function decoyFor(key: string, usernameKey: string): Decoy {
  const digest = createHmac("sha256", key).update(usernameKey).digest();
  if (digest[0]! >= DECOY_QUESTIONS_OUT_OF_256) return { method: "code" };
  const count = DEFAULT_SECURITY_QUESTIONS.length;
  const first = digest[1]! % count;
  // the second is another of the list: one of the count - 1 others
  const second = (first + 1 + (digest[2]! % (count - 1))) % count;
  return { method: "questions", questions: [DEFAULT_SECURITY_QUESTIONS[first]!, DEFAULT_SECURITY_QUESTIONS[second]!] };
}

/** The database's key (migration 0014 makes it); made here if an operator's copy lacks it. */
export function decoyKey(db: Db): string {
  const row = db.select().from(platformKeys).where(eq(platformKeys.name, KEY_NAME)).get();
  if (row) return row.value;
  db.insert(platformKeys)
    .values({ name: KEY_NAME, value: randomBytes(32).toString("hex") })
    .onConflictDoNothing()
    .run();
  return db.select().from(platformKeys).where(eq(platformKeys.name, KEY_NAME)).get()!.value;
}
