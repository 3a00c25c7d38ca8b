import { beforeAll, describe, expect, it } from "vitest";
import { withPlatform, watchPrepares } from "./harness";

// Decision 131: the portfolio and page calls build and prepare each of their statements once per
// database, whatever the caller, member or length of a list of ids (lists are one JSON parameter
// read through json_each): asked again, by another client or for another member, they prepare
// nothing new. The statements are the ones the platform really prepares while answering.

const harness = withPlatform();
let client: string;
let assets: string;
let partner: string;
const recorded: string[] = [];

/** The paths a client's pages ask, for a member `id` and one of its advisers `adviser`. */
const callsOf = (id: number, adviser: number) => [
  ...["asset", "pension", "annuity", "liability"].flatMap((kind) => [
    `/resourceful/entity/client/${id}/${kind}`,
    `/resourceful/entity/client/${id}/${kind}?report_currency=USD&hold_back_period=true`,
  ]),
  "/resourceful/session/capability",
  "/resourceful/session/feature_access?feature_names=documents,messages",
  "/resourceful/session/feature_access?feature_names=documents",
  "/resourceful/feature_toggle/toggle_condition",
  "/resourceful/site/contact_us",
  "/resourceful/site/contact_us?locale=fr-CA",
  "/resourceful/portfolio/benchmark",
  "/resourceful/portfolio/account",
  "/resourceful/portfolio/position",
  "/resourceful/portfolio/summary?level=account",
  "/resourceful/portfolio/profit_analysis/historic_time_series_twrr?timeframe=1Y&benchmark_name=FTSE All-Share",
  "/resourceful/portfolio/transaction?timeframe=1Y",
  "/resourceful/portfolio/transaction?timeframe=3Y&page_size=5",
  `/resourceful/entity/client-v4/${id}`,
  "/resourceful/digital_signature",
  "/resourceful/digital_signature?status=1&page_size=5",
  "/resourceful/session/user/adviser",
  `/resourceful/session/user/adviser/${adviser}`,
  `/resourceful/session/user/adviser/${adviser}/contact`,
];

/** Answers every call (each must succeed) and the statements prepared meanwhile. */
async function prepares(token: string, paths: string[]): Promise<string[]> {
  recorded.length = 0;
  for (const path of paths) {
    const answer = await harness.platform.call(path, { token });
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  }
  return [...recorded];
}

async function memberAndAdviser(token: string): Promise<[number, number]> {
  const user = await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token });
  const advisers = await harness.platform.call<Array<{ id: number }>>("/resourceful/session/user/adviser", { token });
  return [user.body.entity_id, (advisers.body[0] as { id: number }).id];
}

beforeAll(async () => {
  watchPrepares(harness.platform, (source) => recorded.push(source));
  client = await harness.platform.session("demo.client");
  assets = await harness.platform.session("demo.assets");
  partner = await harness.platform.session("demo.partner");
});

describe("statements prepared once (decision 131)", () => {
  it("prepares the statements of the first calls, and none when they are asked again", async () => {
    const [member, adviser] = await memberAndAdviser(client);
    const first = await prepares(client, callsOf(member, adviser));
    // the balance sheet's and the list's statements are among the first round's
    expect(first.some((s) => s.includes("json_each"))).toBe(true);
    expect(first.some((s) => s.includes('from "other_asset_owners"'))).toBe(true);
    expect(await prepares(client, callsOf(member, adviser))).toEqual([]);
  });

  it("prepares none for another client, other members and other lengths of lists", async () => {
    const [member, adviser] = await memberAndAdviser(client);
    await prepares(client, callsOf(member, adviser));
    for (const token of [assets, partner]) {
      const [otherMember, otherAdviser] = await memberAndAdviser(token);
      expect(await prepares(token, callsOf(otherMember, otherAdviser))).toEqual([]);
    }
    // demo.partner's other assets are owned jointly, demo.assets' in several currencies: other lists
    const [partnerMember] = await memberAndAdviser(partner);
    const jointly = await harness.platform.call<Array<{ owners: unknown[] }>>(
      `/resourceful/entity/client/${partnerMember}/asset`,
      {
        token: partner,
      },
    );
    expect(jointly.body.some((a) => a.owners.length > 1)).toBe(true);
  });
});
