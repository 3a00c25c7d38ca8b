import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import type { APIResponse, Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// Issue 24, findings 5 and 6 (docs/decisions/112), against the built portal's own server: whatever
// is asked, the answer is never an unexplained 500, and every answer (page, data request, file,
// JSON, probe, static file, refusal) carries the security headers.

const FORM = "application/x-www-form-urlencoded";
const EVERY_ANSWER = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": /^(DENY|SAMEORIGIN)$/,
  "permissions-policy": /camera=\(\)/,
  "cross-origin-opener-policy": "same-origin",
  "content-security-policy": /frame-ancestors/,
} as const;
const NOT_A_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

type Answer = { status: number; headers: Record<string, string>; text: string };

function expectSecurityHeaders(answer: Answer, what: string) {
  for (const [name, wanted] of Object.entries(EVERY_ANSWER)) {
    const value = answer.headers[name];
    expect(value, `${what}: ${name}`).toBeTruthy();
    if (typeof wanted === "string") expect(value, `${what}: ${name}`).toBe(wanted);
    else expect(value, `${what}: ${name}`).toMatch(wanted);
  }
}

async function answerOf(response: APIResponse): Promise<Answer> {
  return { status: response.status(), headers: response.headers(), text: await response.text() };
}

/** A request as any HTTP client may send it (Playwright's own client refuses some methods). */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = "",
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        agent: false,
        headers: { ...headers, ...(body ? { "Content-Length": Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
          resolve({ status: res.statusCode ?? 0, headers: flat, text: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body || undefined);
  });
}

/** The address of every route that takes a form post (app/routes/<route>/ exporting an action). */
function routesWithActions(): string[] {
  const routes = join(process.cwd(), "app", "routes");
  return readdirSync(routes, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .filter((entry) =>
      readdirSync(join(routes, entry.name)).some(
        (file) =>
          /^route\.tsx?$/.test(file) &&
          /export (async )?function action|export const action/.test(
            readFileSync(join(routes, entry.name, file), "utf8"),
          ),
      ),
    )
    .map(
      (entry) =>
        `/${entry.name
          .replace(/\[\.\]/g, "\u0000")
          .split(".")
          .filter((segment) => segment !== "_index")
          .map((segment) =>
            segment
              .replace(/_$/, "")
              .replace(/^\$.*/, "1")
              .replace(/\u0000/g, "."),
          )
          .join("/")}`,
    );
}

/** The fields of the login page's forms (CSRF token, honeypot) as the page renders them. */
function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const input of html.match(/<input[^>]*>/g) ?? []) {
    if (/type="(submit|checkbox|radio|button)"/.test(input)) continue;
    const name = /name="([^"]*)"/.exec(input)?.[1];
    if (name) fields[name] = (/value="([^"]*)"/.exec(input)?.[1] ?? "").replace(/&amp;/g, "&");
  }
  return fields;
}

const baseOf = (page: Page) =>
  new URL(page.url() === "about:blank" ? (process.env.E2E_BASE_URL ?? "http://localhost:3000") : page.url()).origin;

test.describe("every answer of the portal's server", { tag: "@js-only" }, () => {
  test("a post from another site is a 403 on every page with a form, and the page's own post still works", async ({
    page,
    request,
  }) => {
    const base = baseOf(page);
    const paths = routesWithActions();
    expect(paths).toEqual(expect.arrayContaining(["/login", "/logout", "/clients/preferences", "/session/timeout"]));
    for (const origin of ["https://evil.example", "null", `${base}.evil.example`, "not a url"]) {
      for (const path of paths) {
        const answer = await raw(
          base,
          "POST",
          path,
          { Origin: origin, "Content-Type": FORM },
          "csrf=x&username=demo.client",
        );
        expect(answer.status, `POST ${path} from ${origin}`).toBe(403);
        expect(answer.text).toBe("Cross-site form posts are refused.");
        expectSecurityHeaders(answer, `POST ${path} from ${origin}`);
      }
    }
    // the same post from the portal's own page is not refused for its origin
    const login = await request.get("/login");
    const fields = hiddenFields(await login.text());
    const signedIn = await request.post("/login", {
      headers: { Origin: base, "Content-Type": FORM },
      form: { ...fields, username: "demo.client", password: "Demo-pass-1" },
      maxRedirects: 0,
    });
    expect(signedIn.status()).toBe(302);
    expect(signedIn.headers()["location"]).toMatch(/^\/clients/);
  });

  test("a method a page does not take is a 405 that says which it does", async ({ page }) => {
    const base = baseOf(page);
    const asked: Array<[string, string]> = [
      ["OPTIONS", "/login"],
      ["TRACE", "/login"],
      ["OPTIONS", "/clients/home"],
      ["TRACE", "/"],
      ["PUT", "/logout"],
      ["DELETE", "/logout"],
      ["PATCH", "/logout"],
      ["OPTIONS", "/logout"],
      ["PUT", "/login"],
      ["DELETE", "/clients/preferences"],
      ["OPTIONS", "/favicon.svg"],
    ];
    for (const [method, path] of asked) {
      const answer = await raw(
        base,
        method,
        path,
        method === "OPTIONS" || method === "TRACE" ? {} : { "Content-Type": FORM },
        method === "OPTIONS" || method === "TRACE" ? "" : "a=b",
      );
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers["allow"], `${method} ${path}`).toBe("GET, HEAD, POST");
      expectSecurityHeaders(answer, `${method} ${path}`);
    }
    // a post to an address without a form: Remix's own 405, with the methods it takes
    const probe = await raw(base, "POST", "/healthz", { "Content-Type": FORM }, "a=b");
    expect(probe.status).toBe(405);
    expect(probe.headers["allow"]).toBe("GET, HEAD");
    expectSecurityHeaders(probe, "POST /healthz");
  });

  test("a post that is not a form is a 415", async ({ page }) => {
    const base = baseOf(page);
    for (const type of ["text/plain", "application/json", ""]) {
      const answer = await raw(base, "POST", "/logout", type ? { "Content-Type": type } : {}, "a=b");
      expect(answer.status, `POST /logout as ${type || "nothing"}`).toBe(415);
      expectSecurityHeaders(answer, `POST /logout as ${type || "nothing"}`);
    }
  });

  test("pages, data requests, files, JSON, probes, static files and errors all carry the security headers", async ({
    page,
    javaScript,
  }) => {
    test.slow();
    const answers: Array<[string, Answer]> = [];
    const get = async (what: string, path: string) => {
      const answer = await answerOf(await page.request.get(path, { maxRedirects: 0 }));
      answers.push([what, answer]);
      return answer;
    };

    // signed out
    const login = await get("the login page", "/login");
    expect(login.headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(login.headers["cache-control"]).toBe("private, no-store");
    expect((await get("liveness", "/healthz")).status).toBe(200);
    expect((await get("readiness", "/readyz")).status).toBe(200);
    const down = process.env.E2E_DEAD_PLATFORM_BASE_URL;
    if (down) expect((await get("readiness, platform down (JSON error)", `${down}/readyz`)).status).toBe(503);
    expect((await get("a locale's texts", "/locales/en-GB")).status).toBe(200);
    expect((await get("an unknown locale (JSON error)", "/locales/xx-XX")).status).toBe(404);
    expect((await get("an unknown page", "/no/such/page")).status).toBe(404);
    const favicon = await get("a static file", "/favicon.svg");
    expect(favicon.status).toBe(200);
    expect(favicon.headers["cache-control"]).toBe("public, max-age=3600");
    const script =
      /<script[^>]+src="(\/build\/[^"]+\.js)"/.exec(login.text)?.[1] ??
      /href="(\/build\/[^"]+\.js)"/.exec(login.text)?.[1];
    expect(script, "the login page loads a script").toBeTruthy();
    const asset = await get("a fingerprinted asset", script!);
    expect(asset.status).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get("a missing asset", "/build/no-such-file.js")).status).toBe(404);
    expect((await get("a data request", "/login?_data=root")).status).toBe(200);

    // signed in: files and data
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const csv = await get("the investments CSV", "/clients/analysis/download/investments");
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const messages = await get(
      "a data request of the messages",
      `/clients/documents-and-messages?search=${encodeURIComponent("pension transfer")}&_data=routes%2Fclients.documents-and-messages`,
    );
    expect(messages.status).toBe(200);
    const list = JSON.parse(messages.text) as { view: { list: { items: Array<{ id: number }> } } };
    // the search finds words in bodies and attachment names too (decision 209): open the found
    // messages in turn until one has a picture attached
    let id = 0;
    let photo: { docpartid: number; filename: string } | undefined;
    for (const item of list.view.list.items) {
      const opened = await get(
        "an opened message (data)",
        `/clients/documents-and-messages?message=${item.id}&_data=routes%2Fclients.documents-and-messages`,
      );
      const pane = (
        JSON.parse(opened.text) as { view: { pane: { attachments: Array<{ docpartid: number; filename: string }> } } }
      ).view.pane;
      photo = pane.attachments.find((a) => a.filename.endsWith(".png"));
      id = item.id;
      if (photo) break;
    }
    if (!photo) throw new Error("no message found for 'pension transfer' has a picture attached");
    const attachment = await get(
      "an attachment",
      `/clients/documents-and-messages/files/${id}/${photo.docpartid}?confirm=1`,
    );
    expect(attachment.status).toBe(200);
    expect(attachment.headers["content-disposition"]).toMatch(/^attachment/);
    const image = await get(
      "a message image",
      "/clients/documents-and-messages/images/resourceful/docnote/images/logo.png",
    );
    expect(image.status).toBe(200);
    expect(
      (await get("a missing message image", "/clients/documents-and-messages/images/resourceful/session/user")).status,
    ).toBe(404);
    expect(
      (
        await get(
          "a missing attachment (data error)",
          `/clients/documents-and-messages/files/999999/1?confirm=1&_data=${encodeURIComponent("routes/clients.documents-and-messages_.files.$documentId.$docpartid")}`,
        )
      ).status,
    ).toBe(404);

    // the valuation report's PDF
    await page.goto("/clients/valuation-report");
    const report = page.getByRole("main");
    await report.getByLabel("Report", { exact: true }).selectOption({ label: "Portfolio valuation" });
    if (javaScript === "off") await report.getByRole("button", { name: "Choose report" }).click();
    await report.getByRole("button", { name: "Run report" }).click();
    const link = report.getByRole("link", { name: "Download report.pdf" });
    await expect(link).toBeVisible({ timeout: 30_000 });
    const pdf = await get("the report PDF", (await link.getAttribute("href"))!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");

    for (const [what, answer] of answers) {
      expectSecurityHeaders(answer, what);
      if (!/^text\/html/.test(answer.headers["content-type"] ?? "")) {
        // not a page: the strict policy, or the route's own stricter one (never a page's)
        expect(answer.headers["content-security-policy"], what).not.toMatch(/script-src/);
      }
      // the journeys' portal runs in production mode
      expect(answer.headers["strict-transport-security"], what).toBe("max-age=31536000; includeSubDomains");
    }
    expect(answers.find(([what]) => what === "the investments CSV")![1].headers["content-security-policy"]).toBe(
      NOT_A_PAGE_POLICY,
    );
    expect(answers.find(([what]) => what === "liveness")![1].headers["content-security-policy"]).toBe(
      NOT_A_PAGE_POLICY,
    );
  });

  // ASVS 4.0.3 V14.4.2 (issue 39, docs/decisions/169): data is a download, never a document.
  test("a JSON answer is a download named api.json, a file keeps its own name, and a page is none", async ({
    page,
  }) => {
    const API = 'attachment; filename="api.json"';
    const get = async (path: string) => answerOf(await page.request.get(path, { maxRedirects: 0 }));

    const data = await get("/login?_data=root");
    expect(data.status).toBe(200);
    expect(data.headers["content-type"]).toMatch(/^application\/json/);
    expect(data.headers["content-disposition"]).toBe(API);
    expect((await get("/locales/en-GB")).headers["content-disposition"]).toBe(API);
    expect((await get("/locales/xx-XX")).headers["content-disposition"]).toBe(API);
    expect((await get("/healthz")).headers["content-disposition"]).toBe(API);
    // pages, and plain-text refusals, are read by people
    expect((await get("/login")).headers["content-disposition"]).toBeUndefined();
    const refused = await answerOf(
      await page.request.post("/logout", { data: "{}", headers: { "Content-Type": "application/json" } }),
    );
    expect(refused.status).toBe(415);
    expect(refused.headers["content-type"]).toMatch(/^text\/plain/);
    expect(refused.headers["content-disposition"]).toBeUndefined();

    // signed in, with JavaScript: the portal's own data requests still work (fetch ignores the header)
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const dataRequests: string[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).searchParams.has("_data"))
        dataRequests.push(response.headers()["content-disposition"] ?? "");
    });
    await page.getByText("My Account").click();
    await page.getByRole("link", { name: "Personal details" }).first().click();
    await expect(page).toHaveURL(/\/clients\/personal-details$/);
    await expect(page.getByRole("heading", { level: 1, name: "Personal details" })).toBeVisible();
    expect(dataRequests.length, "a client-side navigation").toBeGreaterThan(0);
    expect(dataRequests.every((value) => value === API)).toBe(true);

    // the heartbeat (a resource route's JSON)
    const token = await page.locator('input[name="csrf"]').first().inputValue();
    const beat = await answerOf(await page.request.post("/session/heartbeat", { form: { csrf: token } }));
    expect(beat.status).toBe(200);
    expect(beat.headers["content-disposition"]).toBe(API);
    // a download keeps its own name
    const csv = await get("/clients/analysis/download/investments");
    expect(csv.headers["content-disposition"]).toMatch(/^attachment; filename="?[^"]*\.csv/);
  });
});
