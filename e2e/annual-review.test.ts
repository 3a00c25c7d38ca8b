import type { APIRequestContext, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { DEMO_PASSWORD, expect, expectAccessible, signIn, test } from "./fixtures";
import { platformUrl } from "./platform";

// spec 002 "Annual Review page", §4 "Review flow", §5 "Review", §8; spec 000 §2 "Log out menu item"
// (docs/decisions/098): the review from its notification, answered for the client and the partner,
// left halfway and resumed after signing in again, submitted; the log out confirmation; speak to
// adviser. Each journey answers its own copy of demo.client (with a partner and both reviews in
// progress), so the two projects never meet on one review.

const REQUIRED = "This question requires an answer";
const LOGOUT_TEXT = "Changes you have made will not be saved. Are you sure you want to log out?";

async function reviewer(request: APIRequestContext): Promise<string> {
  const username = `review-${randomBytes(4).toString("hex")}`;
  // demo.adviser2 is the copy's adviser (a copy has none): 'Speak to adviser' is offered only with one
  const response = await request.post(`${platformUrl()}/dev/users/demo.client/copy`, {
    data: { username, review: true, email: `${username}@example.test`, adviser: "demo.adviser2" },
  });
  expect(response.status()).toBe(201);
  return username;
}

/** The review as the platform holds it, read with the user's own platform session. */
async function platformReview(request: APIRequestContext, username: string) {
  const login = await request.post(`${platformUrl()}/auth/login`, {
    data: { username, password: DEMO_PASSWORD, user_type: "client" },
  });
  expect(login.status()).toBe(200);
  const setCookie = login.headers()["set-cookie"]!;
  const cookie = setCookie
    .split(/[;\n]/)
    .find((c) => c.trim().startsWith("XPLANID="))!
    .trim();
  const headers = { Cookie: cookie };
  const me = (await (await request.get(`${platformUrl()}/resourceful/session/user`, { headers })).json()) as {
    entity_id: number;
  };
  const review = (await (
    await request.get(`${platformUrl()}/resourceful/review/client/${me.entity_id}`, { headers })
  ).json()) as {
    review_status: string;
    partner: { review_status: string } | null;
  };
  const sent = (await (
    await request.get(`${platformUrl()}/resourceful/docnote-v2?page_size=50&docsubtype=Client%20Initiated`, { headers })
  ).json()) as Array<{ subject: string }>;
  return { review, sent };
}

const main = (page: Page) => page.getByRole("main");
const question = (page: Page, legend: string | RegExp) => main(page).getByRole("group", { name: legend });

async function answer(page: Page, legend: string | RegExp, choice: "Yes" | "No") {
  await question(page, legend).getByRole("radio", { name: choice, exact: true }).check();
}

async function next(page: Page, heading: string) {
  await main(page).getByRole("button", { name: "Next" }).click();
  await expect(main(page).getByRole("heading", { level: 2, name: heading })).toBeVisible();
}

/** Log out from the account menu while the review is open: it asks first. */
async function logOutConfirmed(page: Page, javaScript: "on" | "off") {
  await page.getByText("My Account").click();
  await page
    .getByRole("navigation", { name: /account/i })
    .getByRole("button", { name: "Log out" })
    .click();
  if (javaScript === "on") {
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(LOGOUT_TEXT);
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Log out" }).click();
  } else {
    await expect(main(page)).toContainText(LOGOUT_TEXT);
    await expectAccessible(page);
    await main(page).getByRole("button", { name: "Log out" }).click();
  }
  await expect(page).toHaveURL(/\/login\?reason=UserLoggedOut$/);
}

test.describe("annual review", () => {
  test("answers for self and partner, leaves halfway, resumes after signing in again and submits", async ({
    page,
    request,
    javaScript,
  }) => {
    test.slow();
    const username = await reviewer(request);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);

    // the review's notification on the home leads to the review
    const notification = page.getByRole("region", { name: "Your annual review" });
    await expect(notification).toBeVisible();
    await notification.getByRole("button", { name: "Start your review" }).click();
    await expect(page).toHaveURL(/\/clients\/annual-review/);
    await expect(page.getByRole("heading", { level: 1, name: "Annual Review" })).toBeVisible();
    await expect(main(page).getByRole("heading", { level: 2, name: "Your annual review" })).toBeVisible();
    await expectAccessible(page);

    // the partner choice is required before starting
    await main(page).getByRole("button", { name: "Start" }).click();
    await expect(page.getByRole("alert").filter({ hasText: REQUIRED })).toBeVisible();
    await expect(question(page, "Answer on behalf of your partner")).toContainText(REQUIRED);
    await expectAccessible(page);
    await answer(page, "Answer on behalf of your partner", "Yes");
    await main(page).getByRole("button", { name: "Start" }).click();
    await expect(main(page).getByRole("heading", { level: 2, name: "Your circumstances" })).toBeVisible();
    await expect(main(page).getByRole("progressbar")).toHaveAttribute("aria-valuetext", "0% complete");

    // an empty answer is refused, for each person
    await main(page).getByRole("button", { name: "Next" }).click();
    await expect(page.getByRole("alert").getByRole("link", { name: REQUIRED })).toHaveCount(2);
    await expectAccessible(page);

    // a Yes asks for the details (always offered without JavaScript, on Yes with it)
    const own = /Have your own circumstances changed/;
    const partners = /Have .+'s circumstances changed/;
    if (javaScript === "on") await expect(main(page).getByLabel("Please tell us about your changes")).toHaveCount(0);
    await answer(page, own, "Yes");
    await main(page)
      .getByRole("textbox", { name: "Please tell us about your changes" })
      .first()
      .fill("We moved to Bath in March.");
    await answer(page, partners, "No");
    if (javaScript === "on")
      await expect(main(page).getByRole("progressbar")).toHaveAttribute("aria-valuetext", "16% complete");
    await next(page, "Your income and spending");
    await expect(main(page).getByRole("progressbar")).toHaveAttribute("aria-valuetext", "16% complete");
    await answer(page, /Has your own income/, "No");
    await answer(page, /Has .+'s income/, "No");
    await next(page, "Your plans and goals");

    // halfway: Log out asks first, then the user signs in again and finds the answers kept
    await logOutConfirmed(page, javaScript);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/clients/annual-review");
    await expect(main(page).getByRole("heading", { level: 2, name: "Your plans and goals" })).toBeVisible();
    await main(page).getByRole("button", { name: "Previous" }).click();
    await expect(main(page).getByRole("heading", { level: 2, name: "Your income and spending" })).toBeVisible();
    await main(page).getByRole("button", { name: "Previous" }).click();
    await expect(main(page).getByRole("heading", { level: 2, name: "Your circumstances" })).toBeVisible();
    await expect(question(page, own).getByRole("radio", { name: "Yes", exact: true })).toBeChecked();
    await expect(question(page, partners).getByRole("radio", { name: "No", exact: true })).toBeChecked();
    await expect(main(page).getByRole("textbox", { name: "Please tell us about your changes" }).first()).toHaveValue(
      "We moved to Bath in March.",
    );

    await next(page, "Your income and spending");
    await next(page, "Your plans and goals");
    await answer(page, /Have your own plans/, "No");
    await answer(page, /Have .+'s plans/, "No");
    await next(page, "Your attitude to risk");
    await expect(main(page)).toContainText(/Risk rating: 4 \(Balanced\)/);
    await expect(main(page)).toContainText(/Risk rating: 5 \(Moderately adventurous\)/);
    await expectAccessible(page);
    await answer(page, /Do you feel your own attitude/, "No");
    await answer(page, /Does .+ feel their attitude/, "No");
    await next(page, "Your contact details");
    // the playback: both people's values, phones as phone links, empty values as 'None supplied'
    const table = main(page).getByRole("table");
    await expect(table.getByRole("columnheader")).toHaveCount(3);
    await expect(table.getByRole("link", { name: /^\+?[\d ]+$/ }).first()).toHaveAttribute("href", /^tel:/);
    await expect(table).toContainText("None supplied");
    await expectAccessible(page);
    await answer(page, /Do any of your own details/, "No");
    await answer(page, /Do any of .+'s details/, "No");
    await next(page, "Your personal details");
    await answer(page, /Do any of your own details/, "No");
    await answer(page, /Do any of .+'s details/, "No");
    await next(page, "Submit your review");
    await expect(main(page).getByRole("progressbar")).toHaveAttribute("aria-valuetext", "100% complete");
    await expect(main(page)).toContainText("You have told us about some changes.");
    await main(page).getByRole("button", { name: "Submit" }).click();
    await expect(main(page).getByRole("heading", { level: 2, name: "Review complete" })).toBeVisible();
    await expect(main(page)).toContainText("Thank you. Your annual review has been sent to your adviser.");
    await expectAccessible(page);

    // the platform holds one message per person and each person's new status
    const held = await platformReview(request, username);
    expect(held.review.review_status).toBe("Changes Reported");
    expect(held.review.partner?.review_status).toBe("No Changes Reported");
    expect(held.sent.filter((m) => m.subject.startsWith("Annual review"))).toHaveLength(2);

    // Finish goes home, where the review's notification is gone, and Log out no longer asks
    await main(page).getByRole("button", { name: "Finish" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByRole("region", { name: "Your annual review" })).toHaveCount(0);
    await page.goto("/clients/annual-review");
    await expect(page).toHaveURL(/\/clients\/home$/);
  });

  test("'Speak to adviser' on the introduction sets follow-up required instead", async ({ page, request }) => {
    const username = await reviewer(request);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/clients/annual-review");
    await main(page).getByRole("button", { name: "Speak to adviser" }).click();
    await expect(main(page)).toContainText(
      "You have opted for your adviser to contact you instead of completing the review",
    );
    await expectAccessible(page);
    expect((await platformReview(request, username)).review.review_status).toBe("Follow Up Required");
    await main(page).getByRole("link", { name: "Finish" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByRole("region", { name: "Your annual review" })).toHaveCount(0);
  });

  test("is Access Denied for an adviser with the client in context", async ({ page }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Open Hartley, Eleanor" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/clients/annual-review");
    await expect(
      page.getByText("You are not authorised to view the page that you requested.", { exact: false }),
    ).toBeVisible();
    await expectAccessible(page);
  });
});
