import { randomBytes } from "node:crypto";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import type { APIRequestContext, Page } from "@playwright/test";
import { SoftwareAuthenticator } from "../tests/webauthn-authenticator";
import { DEMO_PASSWORD, expect, signIn } from "./fixtures";

// The platform's development endpoints (docs/platform-api.md "Development only"), for journeys.

export const platformUrl = () => {
  const url = process.env.E2E_PLATFORM_URL;
  if (!url) throw new Error("E2E_PLATFORM_URL is not set (run through npm run test:e2e)");
  return url;
};

/**
 * A fresh login in the state of a seeded one. Journeys that use a login up (its sign-in steps,
 * its password, its failure count) each take their own copy, so that the two projects and any
 * order of tests never meet on one account.
 */
export async function copyUser(
  request: APIRequestContext,
  template: string,
  options: { ownEmail?: boolean; adviser?: string; password?: string; clients?: boolean } = {},
): Promise<string> {
  const username = `${template.replace(/^demo\./, "")}-${randomBytes(4).toString("hex")}`;
  // `ownEmail`: an address of its own, so that no lookup by the template's (forgotten username) finds the copy;
  // `adviser`: an adviser the copy is a client of (a copy has none), to be offered 'Speak to adviser'
  const data = {
    username,
    ...(options.ownEmail ? { email: `${username}@example.test` } : {}),
    ...(options.adviser ? { adviser: options.adviser } : {}),
    // `password`: one the copy signs in with, taken as it is (a common one, set before the policy)
    ...(options.password ? { password: options.password } : {}),
    // `clients`: an adviser's copy advises the template's clients too (decision 212)
    ...(options.clients ? { clients: true } : {}),
  };
  const response = await request.post(`${platformUrl()}/dev/users/${template}/copy`, { data });
  expect(response.status(), `copy of ${template}`).toBe(201);
  return username;
}

export type OutboxRow = { id: number; code: string | null; to: string; body: string; subject: string | null };

export async function outbox(request: APIRequestContext, to: string): Promise<OutboxRow[]> {
  const response = await request.get(`${platformUrl()}/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as OutboxRow[];
}

export async function newestId(request: APIRequestContext, to: string): Promise<number> {
  return (await outbox(request, to))[0]?.id ?? 0;
}

/** The code of the newest message sent to `to` after message `afterId` (newest first). */
export async function codeSentAfter(
  request: APIRequestContext,
  to: string,
  afterId: number,
): Promise<{ id: number; code: string }> {
  let found: { id: number; code: string } | null = null;
  await expect
    .poll(async () => {
      const row = (await outbox(request, to))[0];
      found = row && row.id > afterId && row.code ? { id: row.id, code: row.code } : null;
      return found !== null;
    })
    .toBe(true);
  return found!;
}

/** Signs in a user whose login method is MFA by sms or email: the code comes from the outbox. */
export async function signInWithCode(page: Page, request: APIRequestContext, username: string) {
  const before = await newestId(request, username);
  await signIn(page, username);
  await expect(page.getByLabel("Security code")).toBeVisible();
  await page.getByLabel("Security code").fill((await codeSentAfter(request, username, before)).code);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/clients\//);
}

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) of a base32 secret at a time step. */
export function totpAt(base32: string, step: number): string {
  return generateHOTP(decodeBase32IgnorePadding(base32.toUpperCase()), BigInt(step), 6);
}

/** The TOTP of now (or `offset` steps later). */
export function totp(base32: string, offset = 0): string {
  return totpAt(base32, Math.floor(Date.now() / 30_000) + offset);
}

/**
 * A passkey for `username`, registered straight with the platform by a software authenticator (as
 * a browser on the portal's origin would), for journeys without JavaScript, which cannot run a
 * ceremony themselves.
 */
const PLATFORM_HEADERS = {
  Accept: "application/json",
  "X-Xplan-App-Id": "client-online",
  "X-Xplan-Auth-Failure-Action": "error",
};

/** A client's own session on the platform (its `XPLANID=` cookie), signed in with the demo password. */
async function platformSession(request: APIRequestContext, username: string): Promise<string> {
  const login = await request.post(`${platformUrl()}/auth/login`, {
    headers: PLATFORM_HEADERS,
    data: { username, password: DEMO_PASSWORD, user_type: "client" },
  });
  expect(login.status(), `${username} signs in to the platform`).toBe(200);
  const token = login
    .headersArray()
    .find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("XPLANID="));
  return token!.value.split(";")[0]!;
}

/**
 * Sends messages with small text files straight to the platform until the client's attachments of
 * the day are used up (ASVS V12.1.3, docs/decisions/165): the platform refuses the next with 429.
 */
export async function useUpAttachmentAllowance(request: APIRequestContext, username: string): Promise<void> {
  const cookie = await platformSession(request, username);
  const headers = { ...PLATFORM_HEADERS, Cookie: cookie };
  for (let message = 0; message < 1_000; message++) {
    const created = await request.post(`${platformUrl()}/resourceful/docnote-v2`, {
      headers,
      data: { subject: `Papers ${message + 1}`, body: "<p>Papers</p>" },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    for (let file = 0; file < 5; file++) {
      const uploaded = await request.post(`${platformUrl()}/resourceful/docnote-v2/${id}/attachment-v3`, {
        headers,
        multipart: {
          filename: "notes.txt",
          content: { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Notes.\n") },
        },
      });
      if (uploaded.status() === 429) return;
      expect(uploaded.status()).toBe(201);
    }
  }
  throw new Error("the allowance of attachments was never reached");
}

export async function registerPasskeyFor(
  request: APIRequestContext,
  username: string,
  portalOrigin: string,
): Promise<void> {
  const headers = PLATFORM_HEADERS;
  const cookie = await platformSession(request, username);
  const options = await request.post(`${platformUrl()}/resourceful/session/passkey/registration/options`, {
    headers: { ...headers, Cookie: cookie },
    data: { current_password: DEMO_PASSWORD },
  });
  expect(options.status()).toBe(200);
  const { challenge, user } = (await options.json()) as { challenge: string; user: { id: string } };
  const authenticator = new SoftwareAuthenticator({ rpId: "localhost", origin: portalOrigin });
  const verified = await request.post(`${platformUrl()}/resourceful/session/passkey/registration/verify`, {
    headers: { ...headers, Cookie: cookie },
    data: { response: authenticator.register({ challenge, user }), name: "Home tablet" },
  });
  expect(verified.status(), "the passkey is registered").toBe(201);
}
