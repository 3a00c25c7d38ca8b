import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { platformUrl } from "./platform";

// A platform call that outlives the portal's timeout is released with the spec's error, and the
// portal's process lives on (docs/decisions/112): the portal's server uses Node's own fetch, whose
// timeout ends a post whose body is being sent, where the old fetch replacement threw out of reach
// of any handler and stopped the process. A second portal, of the same build, talks to the
// journeys' platform through a relay that holds every post for longer than that portal waits.

const HOLD_POSTS_MS = 1_500;
const PORTAL_TIMEOUT_MS = 400;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** Forwards everything to the platform; posts only after HOLD_POSTS_MS. Counts the held posts released. */
function slowRelay(target: URL, released: { posts: number }): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const forward = () => {
        if (res.destroyed) return;
        const upstream = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: target.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on("error", () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      };
      if (req.method === "POST") {
        setTimeout(() => {
          released.posts += 1;
          forward();
        }, HOLD_POSTS_MS);
      } else {
        forward();
      }
    });
  });
}

async function waitForHealth(url: string): Promise<void> {
  await expect
    .poll(async () => (await fetch(url).catch(() => null))?.status ?? 0, { message: `${url} answers`, timeout: 30_000 })
    .toBe(200);
}

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const input of html.match(/<input[^>]*>/g) ?? []) {
    if (!/type="hidden"|name="[^"]*"/.test(input) || /type="(submit|checkbox|radio|button)"/.test(input)) continue;
    const name = /name="([^"]*)"/.exec(input)?.[1];
    if (name) fields[name] = (/value="([^"]*)"/.exec(input)?.[1] ?? "").replace(/&amp;/g, "&");
  }
  return fields;
}

test.describe("a platform slower than the portal waits", { tag: "@js-only" }, () => {
  let relay: Server;
  let portal: ChildProcess;
  let base: string;
  const released = { posts: 0 };

  test.beforeAll(async () => {
    relay = slowRelay(new URL(platformUrl()), released);
    const relayPort = await listen(relay);
    const portPicker = createServer();
    const portalPort = await listen(portPicker);
    await new Promise((resolve) => portPicker.close(resolve));
    portal = spawn(process.execPath, ["scripts/portal-server.mjs"], {
      stdio: ["ignore", "ignore", "ignore"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(portalPort),
        HOST: "127.0.0.1",
        PLANNING_API_URL: `http://127.0.0.1:${relayPort}`,
        PLANNING_API_KEY: process.env.E2E_PLATFORM_CALLER_KEY,
        PLANNING_TIMEOUT_MS: String(PORTAL_TIMEOUT_MS),
        SESSION_SECRET: randomBytes(32).toString("hex"),
        COOKIE_SECURE: "false",
        LOG_LEVEL: "silent",
      },
    });
    base = `http://127.0.0.1:${portalPort}`;
    await waitForHealth(`${base}/healthz`);
  });

  test.afterAll(async () => {
    portal?.kill("SIGTERM");
    await new Promise((resolve) => relay?.close(resolve));
  });

  test("a sign-in the platform does not answer in time gets the error text, and the portal keeps serving", async ({
    playwright,
  }) => {
    const request = await playwright.request.newContext({ baseURL: base });
    const login = await request.get("/login");
    expect(login.status()).toBe(200);
    const fields = hiddenFields(await login.text());
    const answer = await request.post("/login", {
      headers: { Origin: base },
      form: { ...fields, username: "demo.client", password: "Demo-pass-1" },
      maxRedirects: 0,
    });
    // the platform's answer never came: the spec's error, not a sign-in
    expect(answer.status()).toBeGreaterThanOrEqual(500);
    expect(await answer.text()).not.toContain("TypeError");
    // after the held post is released (the portal has long stopped waiting), the portal is still there
    await expect
      .poll(() => released.posts, { message: "the held sign-in is released", timeout: 15_000 })
      .toBeGreaterThan(0);
    const again = await request.get("/healthz");
    expect(again.status()).toBe(200);
    expect(portal.exitCode).toBeNull();
    await request.dispose();
  });
});
