import type Database from "better-sqlite3";
import { afterAll, beforeAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../server/app";
import { fixedClock } from "../../server/clock";
import { closeDatabase, type Db, openDatabase } from "../../server/db/connection";
import type { PlatformEnv } from "../../server/env";
import { CALLER_KEY_HEADER } from "../../server/lib/caller-key";
import { createLogger, type PlatformLogger } from "../../server/lib/logger";
import { DEMO_PASSWORD, seedIfEmpty } from "../../server/seed";

export type ErrorAnswer = { api_message: string; user_message: string };
export type LoginAnswer = {
  login_status: string;
  role_name: string;
  login_ticket?: string;
  memorableQuestions?: number[];
  memorableWordHint?: string | null;
  mfa_method?: string;
  destination?: string | null;
  enrolled?: boolean;
  mfa_methods?: Array<{ method: string; destination: string | null }>;
  device_id?: string;
  device_name?: string;
  token_secret?: string;
  otpauth_uri?: string;
  terms?: { title: string; html: string };
  default_questions?: string[];
  answer_min_length?: number;
};
export type OutboxRow = {
  id: number;
  to: string;
  channel: string;
  subject: string | null;
  body: string;
  code: string | null;
};
export type Typed = { _type: string; _val: string };
export type ClientRow = {
  id: number;
  entity_name: string;
  first_name: string;
  last_name: string;
  display_name: string;
  dob: Typed | null;
  last_login_datetime: Typed | null;
  user_id: number | null;
  client_access_level: number;
  postcode: string | null;
  email: string | null;
  bookmark: string;
};
export type ClientInContext = {
  id: number;
  entity_id: number;
  display_name: string;
  is_preview_mode: boolean;
  client_access_level: number;
};
export type SessionUser = {
  id: number;
  entity_id: number;
  entity_type: string;
  entity_name: string;
  display_name: string;
  role_name: string;
  locale: string;
  last_login: Typed | null;
  partner_entity_id: number | null;
  login_method: string;
  is_preview_mode: boolean;
  client_access_level: number | null;
  client_in_context: ClientInContext | null;
};

export const START = "2025-03-14T10:00:00.000Z";

/** The caller key of the test platforms (PLATFORM_CALLER_KEYS, docs/decisions/186), as the portal sends it. */
export const TEST_CALLER_KEY = "test-caller-key-0123456789abcdef0123456789abcdef";
/** The header every call to a test platform carries (the harness's `call` adds it itself). */
export const CALLER = { [CALLER_KEY_HEADER]: TEST_CALLER_KEY } as const;

export type Platform = Awaited<ReturnType<typeof startPlatform>>;

/** A platform on a fresh, seeded database file, listening on a free port. */
export async function startPlatform(
  options: {
    nodeEnv?: PlatformEnv["nodeEnv"];
    version?: string;
    maintenance?: boolean;
    allowedHosts?: string[];
    lockoutMinutes?: number;
    attachmentAllowance?: PlatformEnv["attachmentAllowance"];
    /** The /dev/* endpoints (PLATFORM_DEV_ENDPOINTS): on unless a test turns them off (decision 168). */
    devEndpoints?: boolean;
    /** Where the platform prints a demo user's messages while the /dev/* endpoints are off. */
    console?: (text: string) => void;
    /** Where the platform logs; by default its errors only, to console.error, which fails a test (tests/setup). */
    logger?: PlatformLogger;
    /** The clamd that scans uploads (PLATFORM_CLAMD_ADDRESS, docs/decisions/192); by default none. */
    clamd?: PlatformEnv["clamd"];
    /** PLATFORM_CALLER_KEYS: [TEST_CALLER_KEY] unless a test says otherwise (null: none asked). */
    callerKeys?: string[] | null;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "platform-test-"));
  const db: Db = openDatabase(join(dir, "platform.sqlite"));
  const clock = fixedClock(START);
  seedIfEmpty(db, clock);
  const env: PlatformEnv = {
    port: 0,
    host: "127.0.0.1",
    dbFile: join(dir, "platform.sqlite"),
    nodeEnv: options.nodeEnv ?? "test",
    version: options.version,
    maintenance: options.maintenance,
    allowedHosts: options.allowedHosts,
    lockoutMinutes: options.lockoutMinutes,
    attachmentAllowance: options.attachmentAllowance,
    devEndpoints: options.devEndpoints ?? true,
    clamd: options.clamd ?? null,
    callerKeys: options.callerKeys === null ? undefined : (options.callerKeys ?? [TEST_CALLER_KEY]),
  };
  const logger = options.logger ?? createLogger("error", { write: (line: string) => console.error(line.trimEnd()) });
  const server = createApp({ db, clock, env, logger, console: options.console }).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** One call; the answer's body is read as T (the test says what it expects). */
  async function call<T = ErrorAnswer>(
    path: string,
    init: {
      method?: string;
      body?: unknown;
      token?: string | null;
      authFailureAsError?: boolean;
      /** More request headers (the client's address and browser the portal forwards). */
      headers?: Record<string, string>;
    } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      "X-Xplan-App-Id": "client-online",
      ...CALLER,
      ...init.headers,
    };
    if (init.authFailureAsError !== false) headers["X-Xplan-Auth-Failure-Action"] = "error";
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    if (init.token) headers.Cookie = `XPLANID=${init.token}`;
    const response = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "manual",
    });
    const text = await response.text();
    const body = (text ? JSON.parse(text) : null) as T;
    return { status: response.status, body, headers: response.headers };
  }

  async function login(username: string, userType: "client" | "adviser" = "client", password = DEMO_PASSWORD) {
    const answer = await call<LoginAnswer & ErrorAnswer>("/auth/login", {
      method: "POST",
      body: { username, password, user_type: userType },
    });
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("XPLANID="));
    const token = cookie ? decodeURIComponent(cookie.split(";")[0]!.slice("XPLANID=".length)) : null;
    return { ...answer, token };
  }

  /** Signs in and answers the session token (fails the test if sign-in does not succeed). */
  async function session(username: string, userType: "client" | "adviser" = "client") {
    const answer = await login(username, userType);
    if (answer.status !== 200 || !answer.token) throw new Error(`sign-in of ${username} failed: ${answer.status}`);
    return answer.token;
  }

  /** What the platform "sent" to a username or address, newest first. */
  async function outbox(to: string) {
    return (await call<OutboxRow[]>(`/dev/outbox?to=${encodeURIComponent(to)}`)).body;
  }

  /** The latest code sent to a username or address (notices to the owner carry none: docs/decisions/164). */
  async function latestCode(to: string): Promise<string> {
    const code = (await outbox(to)).find((row) => row.code !== null)?.code;
    if (!code) throw new Error(`no code sent to ${to}`);
    return code;
  }

  /** A sign-in step call (POST, no session), its answer read as a login answer or an error. */
  async function step(path: string, body: unknown) {
    const answer = await call<LoginAnswer & ErrorAnswer>(path, { method: "POST", body });
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("XPLANID="));
    const token = cookie ? decodeURIComponent(cookie.split(";")[0]!.slice("XPLANID=".length)) : null;
    return { ...answer, token };
  }

  async function close() {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }

  return { baseUrl, db, clock, call, login, session, outbox, latestCode, step, close };
}

/** The demo sessions the portfolio tests sign in with, on a freshly started platform. */
export async function demoSessions(platform: Platform) {
  const [client, partner, assets, adviser, otherAdviser] = await Promise.all([
    platform.session("demo.client"),
    platform.session("demo.partner"),
    platform.session("demo.assets"),
    platform.session("demo.adviser", "adviser"),
    platform.session("demo.adviser2", "adviser"),
  ]);
  return { client, partner, assets, adviser, otherAdviser };
}

export type DemoSessions = Awaited<ReturnType<typeof demoSessions>>;

/**
 * Shows `seen` every statement the platform prepares from now on: its source and the statement
 * prepared (which `seen` may wrap, as it is the one the platform runs). Answers the call that stops
 * watching.
 */
export function watchPrepares(
  platform: Platform,
  seen: (source: string, statement: Database.Statement) => void,
): () => void {
  const sqlite: Database.Database = platform.db.$client;
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    seen(source, statement);
    return statement;
  }) as Database.Database["prepare"];
  return () => {
    sqlite.prepare = prepare;
  };
}

/**
 * A fresh platform for one test file: started before its tests, closed after them. Read `platform`
 * inside the tests (it is set once `beforeAll` ran).
 */
export function withPlatform(options?: Parameters<typeof startPlatform>[0]): { readonly platform: Platform } {
  const started = {} as { platform: Platform };
  beforeAll(async () => {
    started.platform = await startPlatform(options);
  });
  afterAll(() => started.platform?.close());
  return started;
}

/**
 * A fresh platform with the demo users signed in for one test file: started before its tests, closed
 * after them. Read `platform` and `sessions` inside the tests (they are set once `beforeAll` ran).
 */
export function withDemoPlatform(): { readonly platform: Platform; readonly sessions: DemoSessions } {
  const demo = withPlatform() as { platform: Platform; sessions: DemoSessions };
  beforeAll(async () => {
    demo.sessions = await demoSessions(demo.platform);
  });
  return demo;
}
