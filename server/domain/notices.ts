import { eq } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Db } from "../db/connection";
import { entities, outbox, users } from "../db/schema";
import type { RequestOrigin } from "../lib/request-origin";

// The owner is told at once of every change to how their account is reached (ASVS 4.0.3 V2.2.3,
// V2.5.5; docs/decisions/164): a message to the account's email (the outbox, where reset codes go),
// saying what happened, when, from where (address and browser) and what to do if it was not them.

export type NoticeEvent =
  | { kind: "passwordChanged" }
  | { kind: "passwordReset" }
  | { kind: "passkeyAdded"; name: string }
  | { kind: "passkeyRemoved"; name: string }
  | { kind: "twoStepChanged"; method: "sms" | "email" | "token" }
  | { kind: "securityQuestionsChanged" }
  | { kind: "accountLocked"; until: Date }
  | { kind: "recoveryPaused"; until: Date }
  | { kind: "codeReused" };

const TWO_STEP_WAYS = {
  sms: "by text message to your mobile",
  email: "by email",
  token: "from an authenticator app",
} as const;

const NOT_YOU =
  "If this was you, there is nothing more to do. If it was not you, please reset your password now " +
  "(choose 'Help with logging in' on the Client Online login page) and contact your adviser straight away.";

const NEVER_ASKED =
  "Client Online will never ask you for your password, codes or security answers by email or telephone.";

/** A time as the notices write it: '14 March 2025 at 10:00 UTC'. */
export function noticeTime(at: Date): string {
  const text = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(at);
  return `${text} UTC`;
}

/** What a notice says of the event: its subject, what happened, and what to do if it was not them. */
export function noticeText(event: NoticeEvent, username: string): { subject: string; lead: string; notYou: string } {
  const account = `your Client Online account (username ${username})`;
  switch (event.kind) {
    case "passwordChanged":
      return {
        subject: "Your Client Online password was changed",
        lead: `The password of ${account} was changed.`,
        notYou: NOT_YOU,
      };
    case "passwordReset":
      return {
        subject: "Your Client Online password was reset",
        lead: `The password of ${account} was reset through 'Help with logging in', and every browser signed in to it was signed out.`,
        notYou: NOT_YOU,
      };
    case "passkeyAdded":
      return {
        subject: "A passkey was added to your Client Online account",
        lead: `A passkey named "${event.name}" was added to ${account}. It can be used to log in without a password.`,
        notYou: NOT_YOU,
      };
    case "passkeyRemoved":
      return {
        subject: "A passkey was removed from your Client Online account",
        lead: `The passkey named "${event.name}" was removed from ${account}. It can no longer be used to log in.`,
        notYou: NOT_YOU,
      };
    case "twoStepChanged":
      return {
        subject: "Your Client Online additional verification was changed",
        lead: `The security codes of ${account} now come ${TWO_STEP_WAYS[event.method]}.`,
        notYou: NOT_YOU,
      };
    case "securityQuestionsChanged":
      return {
        subject: "Your Client Online security questions were changed",
        lead: `The security questions of ${account} were changed.`,
        notYou: NOT_YOU,
      };
    case "accountLocked":
      return {
        subject: "Your Client Online account has been locked",
        lead:
          `After 5 incorrect attempts to log in, ${account} has been locked until ${noticeTime(event.until)}. ` +
          "Nobody has logged in: the attempts were refused.",
        notYou:
          "If the attempts were yours, you can log in again after that time, or reset your password now " +
          "(choose 'Help with logging in' on the login page). If they were not yours, your password kept the " +
          "account safe; you may still wish to reset it, and to tell your adviser.",
      };
    case "codeReused":
      return {
        subject: "A security code was used again on your Client Online account",
        lead:
          `When logging in to ${account}, a code from your authenticator app was typed that had already ` +
          "been used. It was refused: a code works once only. To reach that step, whoever typed it knew your password.",
        notYou:
          "If this was you (for example, the same code typed twice), there is nothing more to do. If it was not " +
          "you, please change your password now (My Account, Change password, or 'Help with logging in' on the " +
          "login page) and contact your adviser straight away: someone may know your password and have seen a code.",
      };
    case "recoveryPaused":
      return {
        subject: "Password reset paused on your Client Online account",
        lead:
          `After 5 incorrect reset codes or security answers, password reset for ${account} is paused until ` +
          `${noticeTime(event.until)}. Your password has not changed and you can still log in as usual.`,
        notYou:
          "If this was not you, nothing more is needed: the attempts were refused. If you are worried, " +
          "please tell your adviser.",
      };
  }
}

/** Where from, as the notice writes it. */
export function noticeOrigin(origin: RequestOrigin): string {
  return `address ${origin.address ?? "not known"}, browser ${origin.userAgent ?? "not known"}`;
}

/**
 * Tells the user of the event at once: by email to their preferred email (else their verification
 * email), else a short text message to their verification mobile; nothing when neither is held.
 */
export function tellOwner(
  { db, clock }: { db: Db; clock: Clock },
  userId: number,
  event: NoticeEvent,
  origin: RequestOrigin,
): void {
  const user = db
    .select({
      username: users.username,
      mfaEmail: users.mfaEmail,
      mfaMobile: users.mfaMobile,
      entityId: users.entityId,
    })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user) return;
  const entity = db
    .select({ email: entities.preferredEmail })
    .from(entities)
    .where(eq(entities.id, user.entityId))
    .get();
  const email = entity?.email ?? user.mfaEmail;
  const { subject, lead, notYou } = noticeText(event, user.username);
  const now = clock.now();
  const when = noticeTime(now);
  const sent = { username: user.username, code: null, createdAt: now.toISOString() };
  if (email) {
    const body = [lead, `When: ${when}`, `From: ${noticeOrigin(origin)}`, notYou, NEVER_ASKED].join("\n\n");
    db.insert(outbox)
      .values({ ...sent, to: email, channel: "email", subject, body })
      .run();
  } else if (user.mfaMobile) {
    const body = `Client Online: ${subject} (${when}). If this was not you, please contact your adviser straight away.`;
    db.insert(outbox)
      .values({ ...sent, to: user.mfaMobile, channel: "sms", subject: null, body })
      .run();
  }
}
