import { beforeAll, describe, expect, it } from "vitest";
import { withPlatform } from "./harness";

const harness = withPlatform();
let token: string;
beforeAll(async () => {
  token = await harness.platform.session("demo.client");
});

type BatchAnswer = Array<{ name: string; code: number; msg: string; body: string; headers: Record<string, string> }>;
const batch = (items: unknown[], session: string | null = token) =>
  harness.platform.call<BatchAnswer>("/resourceful", { method: "POST", token: session, body: { batch: items } });

describe("POST /resourceful (batch)", () => {
  it("runs each item with the caller's session and answers each result", async () => {
    const answer = await batch([
      { name: "user", method: "GET", url: "session/user" },
      { name: "other", method: "GET", url: "entity/client-v3/4" },
      { name: "members", method: "GET", url: "/entity/client/1/client_group/member", omit_results_on_success: true },
      { name: "flags", method: "GET", url: "session/feature_access?feature_names=multi_currency" },
      { name: "nothing", method: "GET", url: "no/such/thing" },
    ]);
    expect(answer.status).toBe(200);
    const byName = Object.fromEntries(answer.body.map((item) => [item.name, item]));
    expect(byName.user?.code).toBe(200);
    expect(JSON.parse(byName.user!.body)).toMatchObject({ entity_name: "Hartley, Eleanor" });
    expect(byName.other).toMatchObject({ code: 403, msg: "Forbidden" });
    expect(JSON.parse(byName.other!.body).api_message).toBe("Permission Error: You do not have access to this entity");
    expect(byName.members).toMatchObject({ code: 200, body: "" });
    expect(JSON.parse(byName.flags!.body)).toEqual({ multi_currency: true });
    expect(byName.nothing?.code).toBe(404);
  });

  it("answers 401 items without a session, and refuses urls outside /resourceful/", async () => {
    const answer = await batch(
      [
        { name: "user", method: "GET", url: "session/user" },
        { name: "escape", method: "POST", url: "../auth/login", body: {} },
      ],
      null,
    );
    expect(answer.body.map((i) => i.code)).toEqual([401, 400]);
  });

  it("refuses more than 100 items, and a malformed batch", async () => {
    const items = Array.from({ length: 101 }, (_, i) => ({ name: `n${i}`, method: "GET", url: "session/heartbeat" }));
    const tooMany = await harness.platform.call("/resourceful", { method: "POST", token, body: { batch: items } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.api_message).toMatch(/at most 100/);
    expect((await batch(items.slice(0, 100))).body).toHaveLength(100);
    expect(
      (await harness.platform.call("/resourceful", { method: "POST", token, body: { batch: [{ name: "x" }] } })).status,
    ).toBe(400);
  });

  it("can end the session it runs in", async () => {
    const own = await harness.platform.session("demo.client");
    const answer = await batch(
      [
        { name: "out", method: "DELETE", url: "session" },
        { name: "after", method: "GET", url: "session/user" },
      ],
      own,
    );
    expect(answer.body.map((i) => i.code)).toEqual([204, 401]);
  });
});
