// The keys of a fake planning client (app/planning/client.server.ts `keys`): each fake its own
// platform, so that no answer one fake's page kept between pages (decision 158) serves another.

let fakes = 0;

export function fakePlatformKeys(): { site: string; session: string } {
  fakes += 1;
  return { site: `http://platform-${fakes}.test`, session: `http://platform-${fakes}.test token` };
}
