import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { createPlanningClient, PlanningError } from "~/planning/client.server";
import { env } from "~/runtime/env.server";
import { runWithRequestId } from "~/runtime/request-id.server";
import { failureResponse, settle } from "~/session/failures.server";

type Call = { url: string; method: string; headers: Headers; body: string };

/** A fetch that answers from a list and records each call (called with the URL and a plain init). */
function fakeFetch(answers: Array<Response | Error>) {
  const calls: Call[] = [];
  const fetchImpl = (async (input: Request, init?: RequestInit) => {
    const request = new Request(input, init);
    calls.push({ url: request.url, method: request.method, headers: request.headers, body: await request.text() });
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    if (next instanceof Error) throw next;
    return next;
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

const jsonAnswer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const client = (fetchImpl: typeof fetch, token: string | null = "tok") =>
  createPlanningClient({ baseUrl: "http://platform.test", fetch: fetchImpl, retryDelayMs: 1, token });

describe("the planning client", () => {
  it("authenticates the portal to the platform with PLANNING_API_KEY on every call (docs/decisions/186)", async () => {
    const configured = env.planningApiKey;
    try {
      env.planningApiKey = "caller-key-of-this-portal-0123456789abcdef";
      const { calls, fetchImpl } = fakeFetch([jsonAnswer(200, { ok: true }), jsonAnswer(200, { ok: true })]);
      await client(fetchImpl, null).get("xplan/health", z.object({ ok: z.boolean() }));
      await client(fetchImpl).post("resourceful/session/user", z.object({ ok: z.boolean() }), { body: {} });
      expect(calls.map((c) => c.headers.get("X-Caller-Key"))).toEqual([
        "caller-key-of-this-portal-0123456789abcdef",
        "caller-key-of-this-portal-0123456789abcdef",
      ]);
      env.planningApiKey = null;
      const without = fakeFetch([jsonAnswer(200, { ok: true })]);
      await client(without.fetchImpl).get("xplan/health", z.object({ ok: z.boolean() }));
      expect(without.calls[0]!.headers.has("X-Caller-Key")).toBe(false);
    } finally {
      env.planningApiKey = configured;
    }
  });

  it("sends the platform's headers and the session cookie", async () => {
    const { calls, fetchImpl } = fakeFetch([jsonAnswer(200, { ok: true })]);
    await client(fetchImpl).get("resourceful/session/user", z.object({ ok: z.boolean() }), {
      query: { page_size: 20, empty: "", ids: [3, 4] },
    });
    const headers = calls[0]!.headers;
    expect(calls[0]!.url).toBe("http://platform.test/resourceful/session/user?page_size=20&ids.0=3&ids.1=4");
    expect(headers.get("X-Xplan-Auth-Failure-Action")).toBe("error");
    expect(headers.get("X-Xplan-App-Id")).toBeTruthy();
    expect(headers.get("Accept")).toBe("application/json");
    expect(headers.get("Cookie")).toBe("XPLANID=tok");
  });

  it("passes on the request's client address and browser, for the owner's notices (docs/decisions/164)", async () => {
    const { calls, fetchImpl } = fakeFetch([jsonAnswer(200, { ok: true }), jsonAnswer(200, { ok: true })]);
    await runWithRequestId(
      "req-origin",
      () => client(fetchImpl).get("resourceful/x", z.object({ ok: z.boolean() })),
      "/",
      {
        socketAddress: "::ffff:203.0.113.7",
        userAgent: "Mozilla/5.0 (X11) Firefox/133.0",
      },
    );
    expect(calls[0]!.headers.get("X-Client-Address")).toBe("203.0.113.7");
    expect(calls[0]!.headers.get("X-Client-User-Agent")).toBe("Mozilla/5.0 (X11) Firefox/133.0");
    // outside a request (start-up, a job) nothing is said
    await client(fetchImpl).get("resourceful/x", z.object({ ok: z.boolean() }));
    expect(calls[1]!.headers.get("X-Client-Address")).toBeNull();
    expect(calls[1]!.headers.get("X-Client-User-Agent")).toBeNull();
  });

  it("retries a GET up to three attempts when the platform fails, then succeeds", async () => {
    const { calls, fetchImpl } = fakeFetch([
      new TypeError("fetch failed"),
      jsonAnswer(503, {}),
      jsonAnswer(200, { n: 1 }),
    ]);
    await expect(client(fetchImpl).get("resourceful/x", z.object({ n: z.number() }))).resolves.toEqual({ n: 1 });
    expect(calls).toHaveLength(3);
  });

  it("gives up after three attempts with a network failure", async () => {
    const { calls, fetchImpl } = fakeFetch([
      new TypeError("a"),
      new TypeError("b"),
      new TypeError("c"),
      jsonAnswer(200, {}),
    ]);
    const error = await client(fetchImpl)
      .get("resourceful/x", z.object({}))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanningError);
    expect((error as PlanningError).failure.kind).toBe("network");
    expect(calls).toHaveLength(3);
  });

  it("never retries a 404, a refusal or a POST", async () => {
    for (const [method, status] of [
      ["GET", 404],
      ["GET", 403],
      ["POST", 500],
    ] as const) {
      const { calls, fetchImpl } = fakeFetch([jsonAnswer(status, { api_message: "no" }), jsonAnswer(200, {})]);
      const c = client(fetchImpl);
      const call = method === "GET" ? c.get("resourceful/x", z.object({})) : c.post("resourceful/x", z.object({}));
      await expect(call).rejects.toBeInstanceOf(PlanningError);
      expect(calls, `${method} ${status}`).toHaveLength(1);
    }
  });

  it("repeats PUT and DELETE like GET, never PATCH, and no call its caller marks retry: false", async () => {
    const failingTwice = () => fakeFetch([jsonAnswer(502, {}), jsonAnswer(500, {}), jsonAnswer(200, {})]);
    const put = failingTwice();
    await client(put.fetchImpl).put("resourceful/x", z.object({}), { body: { a: 1 } });
    expect(put.calls.map((c) => [c.method, c.body])).toEqual(Array(3).fill(["PUT", '{"a":1}']));
    const del = failingTwice();
    await client(del.fetchImpl).delete("resourceful/x");
    expect(del.calls).toHaveLength(3);
    const patch = failingTwice();
    await expect(client(patch.fetchImpl).patch("resourceful/x", z.object({}))).rejects.toBeInstanceOf(PlanningError);
    expect(patch.calls).toHaveLength(1);
    const once = failingTwice();
    await expect(client(once.fetchImpl).get("resourceful/x", z.object({}), { retry: false })).rejects.toMatchObject({
      status: 502,
    });
    expect(once.calls).toHaveLength(1);
  });

  it("waits the delay × the attempt between attempts", async () => {
    const times: number[] = [];
    const { fetchImpl } = fakeFetch([new TypeError("a"), new TypeError("b"), jsonAnswer(200, {})]);
    const timed = (async (input: Request, init?: RequestInit) => {
      times.push(Date.now());
      return fetchImpl(input, init);
    }) as unknown as typeof fetch;
    await createPlanningClient({ baseUrl: "http://platform.test", fetch: timed, retryDelayMs: 40 }).get(
      "resourceful/x",
      z.object({}),
    );
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(39);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(79);
  });

  it("gives each attempt its own time limit, the body's reading included", async () => {
    let calls = 0;
    const slowBody = (async (_input: Request, init?: RequestInit) => {
      calls++;
      if (calls === 2) return jsonAnswer(200, { n: 2 });
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"n": '));
          init?.signal?.addEventListener("abort", () => controller.error(init.signal!.reason));
        },
      });
      return new Response(body, { status: 200 });
    }) as unknown as typeof fetch;
    const options = { baseUrl: "http://platform.test", fetch: slowBody, retryDelayMs: 1, timeoutMs: 50 };
    await expect(createPlanningClient(options).get("resourceful/x", z.object({ n: z.number() }))).resolves.toEqual({
      n: 2,
    });
    expect(calls).toBe(2);
  });

  it("lets an answer streamed on unread take longer than the time limit once its headers are in", async () => {
    let aborted = false;
    const slowDocument = (async (_input: Request, init?: RequestInit) => {
      init?.signal?.addEventListener("abort", () => (aborted = true));
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("%PDF-"));
          init?.signal?.addEventListener("abort", () => controller.error(init.signal!.reason));
          setTimeout(() => {
            controller.enqueue(new TextEncoder().encode("1.7"));
            controller.close();
          }, 150);
        },
      });
      return new Response(body, { status: 200, headers: { "Content-Type": "application/pdf" } });
    }) as unknown as typeof fetch;
    const options = { baseUrl: "http://platform.test", fetch: slowDocument, retryDelayMs: 1, timeoutMs: 50 };
    const response = await createPlanningClient(options).send("GET", "resourceful/docnote/files/1/2/a.pdf");
    expect(await response.text()).toBe("%PDF-1.7");
    expect(aborted).toBe(false);
  });

  it("makes a refusal without a stack trace and keeps a fault's (docs/decisions/132)", async () => {
    const frames = (error: unknown) =>
      ((error as Error).stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
    for (const status of [404, 403, 401, 409]) {
      const { fetchImpl } = fakeFetch([jsonAnswer(status, { api_message: "no" })]);
      const refused = await client(fetchImpl)
        .get("resourceful/x", z.object({}))
        .catch((e: unknown) => e);
      expect((refused as PlanningError).status, `${status}`).toBe(status);
      expect((refused as Error).stack, `${status}`).toContain(`planning platform answered ${status}: no`);
      expect(frames(refused), `${status}`).toEqual([]);
    }
    const { fetchImpl: batchFetch } = fakeFetch([
      jsonAnswer(200, [{ name: "item", code: 404, msg: "Not found", body: JSON.stringify({ api_message: "gone" }) }]),
    ]);
    const item = await client(batchFetch)
      .batch({ item: { url: "resourceful/y", schema: z.object({}) } })
      .catch((e: unknown) => e);
    expect((item as PlanningError).status).toBe(404);
    expect(frames(item)).toEqual([]);
    for (const answers of [
      [new TypeError("a"), new TypeError("b"), new TypeError("c")],
      [jsonAnswer(200, { n: "one" })],
    ]) {
      const { fetchImpl } = fakeFetch(answers);
      const fault = await client(fetchImpl)
        .get("resourceful/x", z.object({ n: z.number() }))
        .catch((e: unknown) => e);
      expect(fault).toBeInstanceOf(PlanningError);
      expect(frames(fault).length).toBeGreaterThan(0);
    }
    expect(frames(new Error("after the refusals")).length).toBeGreaterThan(0);
  });

  it("keeps the body of a refusal, for refusals that carry data", async () => {
    const body = { api_message: "Wrong code", login_status: "MfaRequired", login_ticket: "t" };
    const { fetchImpl } = fakeFetch([jsonAnswer(401, body)]);
    const error = await client(fetchImpl, null)
      .post("auth/tfa/validate", z.object({}))
      .catch((e: unknown) => e);
    expect((error as PlanningError).apiMessage).toBe("Wrong code");
    expect((error as PlanningError).body).toEqual(body);
  });

  it("treats an answer that breaks the contract as a failure", async () => {
    const { fetchImpl } = fakeFetch([jsonAnswer(200, { n: "one" })]);
    const error = await client(fetchImpl)
      .get("resourceful/x", z.object({ n: z.number() }))
      .catch((e: unknown) => e);
    expect((error as PlanningError).status).toBe(502);
  });

  it("recognises a lost session and sends the user to login, remembering the page", async () => {
    const { fetchImpl } = fakeFetch([
      jsonAnswer(401, { api_message: "This feature is not available without a valid session" }),
    ]);
    const error = await client(fetchImpl)
      .get("resourceful/x", z.object({}))
      .catch((e: unknown) => e);
    const response = await failureResponse(error, new Request("http://portal.test/clients/home?tab=1"));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?reason=LostSession&redirectTo=%2Fclients%2Fhome%3Ftab%3D1");
    // The portal's own cookie is cleared too, or the login page would send the user straight back.
    expect(response.headers.get("Set-Cookie")).toMatch(/^__session=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("turns other failures into the catalogue for the page, or for the form", async () => {
    const { fetchImpl } = fakeFetch([jsonAnswer(422, { api_message: "Permission Error: Value too large" })]);
    const request = new Request("http://portal.test/clients/home", { method: "POST" });
    const outcome = await settle(request, client(fetchImpl).post("resourceful/x", z.object({})));
    expect(outcome).toEqual({ ok: false, failure: { kind: "api", status: 422, detail: "Value too large." } });

    const response = await failureResponse(new PlanningError(0, null), request);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ failure: { kind: "network", status: 503, detail: null } });
  });

  it("runs several calls in one batch and validates each answer", async () => {
    const { calls, fetchImpl } = fakeFetch([
      jsonAnswer(200, [
        { name: "user", code: 200, msg: "OK", body: JSON.stringify({ id: 1 }) },
        { name: "caps", code: 200, msg: "OK", body: JSON.stringify({ capabilities: ["view_partner"] }) },
      ]),
    ]);
    const answers = await client(fetchImpl).batch({
      user: { url: "session/user", schema: z.object({ id: z.number() }) },
      caps: { url: "/session/capability", schema: z.object({ capabilities: z.array(z.string()) }) },
    });
    expect(answers).toEqual({ user: { id: 1 }, caps: { capabilities: ["view_partner"] } });
    expect(calls[0]!.url).toBe("http://platform.test/resourceful");
    expect(calls[0]!.method).toBe("POST");
    expect(calls[0]!.headers.get("Content-Type")).toBe("application/json");
    expect(JSON.parse(calls[0]!.body)).toEqual({
      batch: [
        { name: "user", method: "GET", url: "session/user" },
        { name: "caps", method: "GET", url: "session/capability" },
      ],
    });
  });

  it("fails a batch when one of its calls failed, with that call's message", async () => {
    const { fetchImpl } = fakeFetch([
      jsonAnswer(200, [
        { name: "a", code: 200, msg: "OK", body: "{}" },
        { name: "b", code: 403, msg: "Forbidden", body: JSON.stringify({ api_message: "Permission Error: no" }) },
      ]),
    ]);
    const error = await client(fetchImpl)
      .batch({ a: { url: "x", schema: z.object({}) }, b: { url: "y", schema: z.object({}) } })
      .catch((e: unknown) => e);
    expect((error as PlanningError).status).toBe(403);
    expect((error as PlanningError).failure.detail).toBe("no.");
  });

  it("answers a settled batch's items each on its own, and fails it whole on a lost session", async () => {
    const schema = z.object({ id: z.number() });
    const { calls, fetchImpl } = fakeFetch([
      jsonAnswer(200, [
        { name: "a", code: 200, msg: "OK", body: JSON.stringify({ id: 1 }) },
        { name: "b", code: 403, msg: "Forbidden", body: JSON.stringify({ api_message: "Permission Error: no" }) },
        { name: "c", code: 200, msg: "OK", body: JSON.stringify({ id: "one" }) },
      ]),
      jsonAnswer(200, [
        { name: "a", code: 200, msg: "OK", body: JSON.stringify({ id: 1 }) },
        {
          name: "b",
          code: 401,
          msg: "Unauthorized",
          body: JSON.stringify({ api_message: "This feature is not available without a valid session" }),
        },
      ]),
    ]);
    const items = { a: { url: "x", schema }, b: { url: "y", schema }, c: { url: "z", schema } };
    const answers = await client(fetchImpl).batchSettled(items);
    expect(calls).toHaveLength(1);
    expect(answers.a).toEqual({ ok: true, value: { id: 1 } });
    expect(answers.b.ok || answers.b.error.status).toBe(403);
    expect(answers.b.ok || answers.b.error.failure.detail).toBe("no.");
    // an answer the contract does not allow is that item's broken answer (502), not the others'
    expect(answers.c.ok || answers.c.error.status).toBe(502);

    const lost = await client(fetchImpl)
      .batchSettled({ a: items.a, b: items.b })
      .catch((e: unknown) => e);
    expect((lost as PlanningError).failure.kind).toBe("lost-session");
  });

  it("retries a batch of GETs like page data, and never a batch that changes something", async () => {
    const reads = fakeFetch([jsonAnswer(503, {}), jsonAnswer(200, [{ name: "a", code: 200, body: "{}" }])]);
    await expect(client(reads.fetchImpl).batch({ a: { url: "x", schema: z.object({}) } })).resolves.toEqual({ a: {} });
    expect(reads.calls).toHaveLength(2);

    const writes = fakeFetch([jsonAnswer(503, {}), jsonAnswer(200, [{ name: "a", code: 200, body: "{}" }])]);
    const error = await client(writes.fetchImpl)
      .batch({ a: { method: "PUT", url: "x", schema: z.object({}) } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanningError);
    expect(writes.calls).toHaveLength(1);
  });

  it("treats a batch item whose body is broken JSON as a broken answer", async () => {
    const { fetchImpl } = fakeFetch([jsonAnswer(200, [{ name: "a", code: 200, body: '{"id": ' }])]);
    const error = await client(fetchImpl)
      .batch({ a: { url: "x", schema: z.object({}) } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanningError);
    expect((error as PlanningError).status).toBe(502);
  });

  it("treats an answer cut off mid-body as no answer: a GET is tried again, a POST is not", async () => {
    const cutOff = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"n": '));
            controller.error(new TypeError("terminated"));
          },
        }),
        { status: 200, headers: { "Content-Type": "application/json" } },
      );
    const get = fakeFetch([cutOff(), jsonAnswer(200, { n: 1 })]);
    await expect(client(get.fetchImpl).get("resourceful/x", z.object({ n: z.number() }))).resolves.toEqual({ n: 1 });
    expect(get.calls).toHaveLength(2);

    const post = fakeFetch([cutOff(), jsonAnswer(200, { n: 1 })]);
    const error = await client(post.fetchImpl)
      .post("resourceful/x", z.object({ n: z.number() }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanningError);
    expect((error as PlanningError).failure.kind).toBe("network");
    expect(post.calls).toHaveLength(1);
  });
});

// The portal's own way to the platform: undici's request, against a real HTTP server here.
describe("the planning client through undici (issue 38)", () => {
  type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };
  const seen: Seen[] = [];
  let handle: (req: IncomingMessage, res: ServerResponse, body: string) => void = () => undefined;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handle(req, res, body);
    });
  });
  let baseUrl = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const undiciClient = (options: { timeoutMs?: number } = {}) =>
    createPlanningClient({ baseUrl, token: "tok", retryDelayMs: 1, ...options });

  it("sends the platform's headers, the session cookie and a JSON body, and reads the answer", async () => {
    seen.length = 0;
    handle = (_req, res, body) => json(res, 200, { echoed: JSON.parse(body) as unknown });
    const answer = await undiciClient().post("resourceful/x", z.object({ echoed: z.object({ a: z.number() }) }), {
      body: { a: 1 },
      query: { ids: [3, 4] },
    });
    expect(answer).toEqual({ echoed: { a: 1 } });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/resourceful/x?ids.0=3&ids.1=4", body: '{"a":1}' });
    expect(seen[0]!.headers).toMatchObject({
      accept: "application/json",
      "content-type": "application/json",
      cookie: "XPLANID=tok",
      "x-xplan-auth-failure-action": "error",
    });
  });

  it("repeats a GET the platform failed, not a 404, and takes a redirect for a lost session", async () => {
    seen.length = 0;
    let calls = 0;
    handle = (_req, res) => (++calls < 3 ? json(res, 503, {}) : json(res, 200, { n: 3 }));
    await expect(undiciClient().get("resourceful/x", z.object({ n: z.number() }))).resolves.toEqual({ n: 3 });
    expect(seen).toHaveLength(3);

    seen.length = 0;
    handle = (_req, res) => json(res, 404, { api_message: "Not here" });
    const missing = await undiciClient()
      .get("resourceful/x", z.object({}))
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, apiMessage: "Not here" });
    expect(seen).toHaveLength(1);

    handle = (_req, res) => {
      res.writeHead(302, { Location: "/login" });
      res.end();
    };
    const lost = await undiciClient()
      .get("resourceful/x", z.object({}))
      .catch((e: unknown) => e);
    expect((lost as PlanningError).status).toBe(401);
  });

  it("gives each attempt its own time limit, the body's reading included", async () => {
    seen.length = 0;
    handle = (_req, res) => {
      if (seen.length === 2) return json(res, 200, { n: 2 });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"n": '); // and nothing more
    };
    await expect(undiciClient({ timeoutMs: 100 }).get("resourceful/x", z.object({ n: z.number() }))).resolves.toEqual({
      n: 2,
    });
    expect(seen).toHaveLength(2);
  });

  it("passes on a streamed answer whole, with its headers, however long after the limit it ends", async () => {
    handle = (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/pdf", "Set-Cookie": ["a=1", "b=2"] });
      res.write("%PDF-");
      setTimeout(() => res.end("1.7"), 250);
    };
    const response = await undiciClient({ timeoutMs: 100 }).send("GET", "resourceful/docnote/files/1/2/a.pdf");
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.text()).toBe("%PDF-1.7");
  });
});
