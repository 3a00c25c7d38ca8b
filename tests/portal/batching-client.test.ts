import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { batchingClient } from "~/planning/batching.server";
import { createPlanningClient, PlanningError } from "~/planning/client.server";

// docs/decisions/196: a loader's reads started together go to the platform as one batch

type Call = { url: string; method: string; body: string };

/** A platform that answers GETs and batches of GETs from a table of resources, recording each call. */
function platform(resources: Record<string, { code: number; body: unknown }>, whole?: Response) {
  const calls: Call[] = [];
  const answerOf = (path: string) => resources[path] ?? { code: 404, body: { api_message: "Not found" } };
  const fetchImpl = (async (input: Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = await request.text();
    calls.push({ url: `${url.pathname}${url.search}`, method: request.method, body });
    if (whole) return whole.clone();
    if (request.method === "POST" && url.pathname === "/resourceful") {
      const items = (JSON.parse(body) as { batch: Array<{ name: string; url: string }> }).batch;
      return Response.json(
        items.map((item) => {
          const answer = answerOf(`/resourceful/${item.url}`);
          return { name: item.name, code: answer.code, msg: "", body: JSON.stringify(answer.body) };
        }),
      );
    }
    const answer = answerOf(`${url.pathname}${url.search}`);
    return Response.json(answer.body, { status: answer.code });
  }) as unknown as typeof fetch;
  const planning = createPlanningClient({
    baseUrl: "http://platform.test",
    fetch: fetchImpl,
    retryDelayMs: 1,
    token: "t",
  });
  return { calls, planning: batchingClient(planning) };
}

const N = z.object({ n: z.number() });

describe("the batching planning client", () => {
  it("sends reads started together as one batch, each answering its own caller", async () => {
    const { calls, planning } = platform({
      "/resourceful/a?x=1&ids.0=3": { code: 200, body: { n: 1 } },
      "/resourceful/b": { code: 200, body: { n: 2 } },
      "/resourceful/c": { code: 200, body: { n: 3 } },
    });
    const [a, both] = await Promise.all([
      planning.get("resourceful/a", N, { query: { x: 1, ids: [3] } }),
      planning.batch({ b: { url: "b", schema: N }, c: { url: "/c", schema: N } }),
    ]);
    expect(a).toEqual({ n: 1 });
    expect(both).toEqual({ b: { n: 2 }, c: { n: 3 } });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe("POST");
    expect(JSON.parse(calls[0]!.body).batch.map((i: { url: string }) => i.url)).toEqual(["a?x=1&ids.0=3", "b", "c"]);
  });

  it("sends a read alone as itself, and reads started later in a round trip of their own", async () => {
    const { calls, planning } = platform({ "/resourceful/a": { code: 200, body: { n: 1 } } });
    await planning.get("resourceful/a", N);
    await planning.get("resourceful/a", N);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(["GET /resourceful/a", "GET /resourceful/a"]);
  });

  it("fails each caller as it would have failed alone", async () => {
    const { calls, planning } = platform({
      "/resourceful/ok": { code: 200, body: { n: 1 } },
      "/resourceful/bad": { code: 200, body: { n: "not a number" } },
      "/resourceful/gone": { code: 404, body: { api_message: "gone" } },
    });
    const [get, batch, settled] = await Promise.all([
      planning.get("resourceful/gone", N).catch((e: unknown) => e),
      planning.batch({ ok: { url: "ok", schema: N }, bad: { url: "bad", schema: N } }).catch((e: unknown) => e),
      planning.batchSettled({ ok: { url: "ok", schema: N }, gone: { url: "gone", schema: N } }),
    ]);
    expect(calls).toHaveLength(1);
    expect((get as PlanningError).status).toBe(404);
    // a batch fails whole on an item that fails, with that item's error
    expect((batch as PlanningError).status).toBe(502);
    expect(settled.ok).toEqual({ ok: true, value: { n: 1 } });
    expect(settled.gone.ok || settled.gone.error.status).toBe(404);
  });

  it("fails every caller, settled or not, when the round trip fails or the session is lost", async () => {
    const lost = platform(
      {},
      Response.json({ api_message: "This feature is not available without a valid session" }, { status: 401 }),
    );
    const answers = await Promise.all([
      lost.planning.get("resourceful/a", N).catch((e: unknown) => e),
      lost.planning.batchSettled({ b: { url: "b", schema: N } }).catch((e: unknown) => e),
    ]);
    for (const answer of answers) expect((answer as PlanningError).failure.kind).toBe("lost-session");

    const down = platform({}, Response.json({}, { status: 503 }));
    const failed = await Promise.all([
      down.planning.get("resourceful/a", N).catch((e: unknown) => e),
      down.planning.batchSettled({ b: { url: "b", schema: N } }).catch((e: unknown) => e),
    ]);
    for (const answer of failed) expect((answer as PlanningError).status).toBe(503);
    // one round trip, sent again as a batch of reads is (spec 000 §7)
    expect(down.calls.map((c) => c.method)).toEqual(["POST", "POST", "POST"]);
  });

  it("leaves alone what is not a read of a resource", async () => {
    const { calls, planning } = platform({
      "/resourceful/a": { code: 200, body: { n: 1 } },
      "/xplan/health": { code: 200, body: { n: 2 } },
    });
    await Promise.all([
      planning.get("xplan/health", N),
      planning.get("resourceful/a", N, { retry: false }),
      planning.batch({ w: { method: "PUT", url: "a", schema: N } }).catch(() => null),
    ]);
    expect(calls.map((c) => `${c.method} ${c.url}`).sort()).toEqual([
      "GET /resourceful/a",
      "GET /xplan/health",
      "POST /resourceful",
    ]);
    const put = calls.find((c) => c.method === "POST")!;
    expect(JSON.parse(put.body).batch).toEqual([{ name: "w", method: "PUT", url: "a" }]);
  });
});
