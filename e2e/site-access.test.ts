import { expect, expectAccessible, signIn, test } from "./fixtures";
import { copyUser, platformUrl } from "./platform";

// spec 000 §4 "Session check and gates": "The site access gate waits for it, then shows content if
// the level is valid, otherwise redirects to /login"; §8 site access errors (decision 038).

test("a client whose access level has no mapping is sent back to login with the reason", async ({ page, request }) => {
  // a copy of a login no other journey looks up by its details (forgotten username finds by email)
  const username = await copyUser(request, "demo.assets");
  const set = await request.put(`${platformUrl()}/dev/users/${username}/client_access_level`, {
    data: { client_access_level: 7 },
  });
  expect(set.ok()).toBe(true);

  await signIn(page, username);
  await expect(page).toHaveURL(/\/login\?error=AccessLevelMapping$/);
  // the page's error (the toasts' live region is an alert too, empty)
  await expect(page.getByRole("alert").filter({ hasText: "No mapping found for client_access_level" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Log in to Client Online" })).toBeVisible();
  await expectAccessible(page);

  // no session was kept: the clients section still asks for a sign-in
  await page.goto("/clients/home");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fclients%2Fhome$/);
});
