import { afterAll, describe, expect, it } from "vitest";
import { type ClientRow, type Platform, startPlatform } from "./harness";

const started: Platform[] = [];
afterAll(async () => {
  for (const platform of started) await platform.close();
});

async function clientList() {
  const platform = await startPlatform();
  started.push(platform);
  const token = await platform.session("demo.adviser", "adviser");
  const answer = await platform.call<ClientRow[]>("/resourceful/entity/client-v3?page_size=100", { token });
  // the bookmark and last login are data too: compare everything
  return answer.body;
}

describe("demo data set", () => {
  it("is the same on every fresh database", async () => {
    const [first, second] = [await clientList(), await clientList()];
    expect(first.length).toBeGreaterThanOrEqual(45);
    expect(second).toEqual(first);
  });

  it("signs every demo login in with the demo password", async () => {
    const platform = await startPlatform();
    started.push(platform);
    const clients = [
      "demo.client",
      "demo.partner",
      "demo.assets",
      "demo.messages",
      "demo.mfa",
      "demo.enrol",
      "demo.memorable",
      "demo.newuser",
      "demo.factfind",
      "demo.robo",
    ];
    for (const username of clients) {
      const answer = await platform.login(username);
      expect(answer.status, username).toBe(200);
    }
    expect((await platform.login("demo.adviser", "adviser")).body.login_status).toBe("LoginSuccess");
  });
});
