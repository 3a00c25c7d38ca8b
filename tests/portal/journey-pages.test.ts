import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Portal, signInDemoUsers, startPortal, thrown } from "./portal-harness";

// spec 002 §2 "Screens and routes": /core/factfind, /core/apa and /core/robo introduce journeys that
// run on another system, from the site's content, and link to the addresses its settings give;
// /core/review is the annual review (docs/decisions/096).

type Journey = { title: string; html: string; url: string | null };
type Loader = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<Response>;

let portal: Portal;
let users: Awaited<ReturnType<typeof signInDemoUsers>>;
const loaders: Record<string, Loader> = {};

beforeAll(async () => {
  portal = await startPortal();
  users = await signInDemoUsers(portal);
  loaders.factfind = (await import("~/routes/core.factfind/route")).loader as Loader;
  loaders.apa = (await import("~/routes/core.apa/route")).loader as Loader;
  loaders.robo = (await import("~/routes/core.robo/route")).loader as Loader;
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

function open(journey: string, cookie?: string, language?: string) {
  const headers: Record<string, string> = {};
  if (cookie) headers.Cookie = cookie;
  if (language) headers["Accept-Language"] = language;
  return thrown(
    loaders[journey]!({
      request: new Request(`http://portal.test/core/${journey}`, { headers }),
      params: {},
      context: {},
    }),
  );
}

describe("the journey pages", () => {
  it.each([
    ["factfind", "Fact find", "https://journeys.northbridgewealth.example/factfind"],
    ["apa", "Automated personal advice", "https://journeys.northbridgewealth.example/apa"],
    ["robo", "Retirement health check", "https://journeys.northbridgewealth.example/robo"],
  ])("/core/%s introduces the journey from content and links to its address", async (journey, title, url) => {
    for (const client of [users.client, users.messages]) {
      const answer = await open(journey, client);
      expect(answer.status).toBe(200);
      const data = (await answer.json()) as { journey: Journey };
      expect(data.journey.title).toBe(title);
      expect(data.journey.html).toMatch(/^<p>/);
      expect(data.journey.url).toBe(url);
    }
  });

  it("sends a signed-out visitor to login, and back here after", async () => {
    const answer = await open("factfind");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: "/core/factfind" })}`);
  });

  it("is the client's own: Access Denied for an adviser with a client in context, the client list without one", async () => {
    expect((await open("apa", users.adviserWithClient)).status).toBe(403);
    const adviser = await open("apa", users.adviser);
    expect(adviser.status).toBe(302);
    expect(adviser.headers.get("Location")).toBe("/advisers/clients");
  });

  it("/core/review goes to the annual review", async () => {
    const review = await import("~/routes/core.review/route");
    const answer = await thrown(Promise.resolve(review.loader()));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/clients/annual-review");
  });
});
