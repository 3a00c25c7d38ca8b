import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";
import { copyUser } from "./platform";

// spec 002 "Notification and postponement panels", §4 "Notification flow", "Postponement panel", §6:
// the notifications on the clients home and the messages page, with JavaScript on (two or more in a
// modal that pages 'n / total') and off (a list of panels). Anything that changes a status runs on
// its own copy of a demo login.

const FACT_FIND = "Complete your fact find";
const APA = "Get investment advice online";
const REVIEW = "Your annual review";
const SPOKEN = "You have opted for your adviser to contact you instead of completing the review";

const region = (page: Page, name: string) => page.getByRole("region", { name });

test.describe("notifications", () => {
  test("a client with two notifications pages through them and closes one; it waits in the postponement notice", async ({
    page,
    request,
    javaScript,
  }) => {
    const username = await copyUser(request, "demo.factfind");
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);

    if (javaScript === "on") {
      // decision 120: the pop-up waits for the cookie choice; until then the notifications are
      // panels in the page and the cookie notice is not covered
      const accept = page.getByRole("button", { name: "Accept cookies" });
      await expect(accept).toBeVisible();
      await expect(region(page, FACT_FIND)).toBeVisible();
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await accept.click();
      await expect(accept).toHaveCount(0);
      // two notifications: a modal that pages 'n / total' and wraps around
      const dialog = page.getByRole("dialog", { name: FACT_FIND });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByText("1 / 2")).toBeVisible();
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Next" }).click();
      await expect(page.getByRole("dialog", { name: APA })).toBeVisible();
      await expect(page.getByRole("dialog").getByText("2 / 2")).toBeVisible();
      await page.getByRole("dialog").getByRole("button", { name: "Next" }).click();
      await expect(page.getByRole("dialog", { name: FACT_FIND }).getByText("1 / 2")).toBeVisible();
      await page.getByRole("dialog").getByRole("button", { name: "Previous" }).click();
      await expect(page.getByRole("dialog", { name: APA }).getByText("2 / 2")).toBeVisible();
      await page.getByRole("dialog").getByRole("button", { name: "Previous" }).click();
      await page
        .getByRole("dialog", { name: FACT_FIND })
        .getByRole("button", { name: "Close fact find notification" })
        .click();
    } else {
      // without JavaScript: both as panels, each a region with its own buttons
      await expect(region(page, FACT_FIND)).toBeVisible();
      await expect(region(page, APA)).toBeVisible();
      await expect(region(page, FACT_FIND).getByRole("button", { name: FACT_FIND })).toBeVisible();
      // demo.factfind has no adviser: no 'Speak to adviser' (issue 25 item 12)
      await expect(region(page, FACT_FIND).getByRole("button", { name: "Speak to adviser" })).toHaveCount(0);
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expectAccessible(page);
      await region(page, FACT_FIND).getByRole("button", { name: "Close fact find notification" }).click();
    }

    // one notification left: the inline panel only; the closed one waits in the postponement notice
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(region(page, APA)).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(region(page, FACT_FIND)).toHaveCount(0);
    const notice = region(page, "Waiting for you");
    await expect(notice).toContainText("Your fact find is waiting for you.");
    await expectAccessible(page);

    // the same on the messages page
    await page.goto("/clients/documents-and-messages");
    await expect(region(page, APA)).toBeVisible();
    await expect(region(page, "Waiting for you")).toContainText("Your fact find is waiting for you.");
    await expectAccessible(page);

    // following the notice marks it and goes to its page
    await region(page, "Waiting for you").getByRole("button", { name: FACT_FIND }).click();
    await expect(page).toHaveURL(/\/core\/factfind$/);
    await page.goto("/clients/home");
    await expect(region(page, APA)).toBeVisible();
    await expect(region(page, "Waiting for you")).toHaveCount(0);
  });

  test("a client with one notification sees it inline; 'Speak to adviser' confirms and it is gone", async ({
    page,
    request,
  }) => {
    // a copy has no adviser of its own: demo.adviser2 is the one to speak to
    const username = await copyUser(request, "demo.client", { ownEmail: true, adviser: "demo.adviser2" });
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    const review = region(page, REVIEW);
    await expect(review).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(review.getByRole("button", { name: "Close review notification" })).toBeVisible();
    await expectAccessible(page);

    await review.getByRole("button", { name: "Speak to adviser" }).click();
    await expect(page.getByText(SPOKEN)).toBeVisible();
    await expect(region(page, REVIEW)).toHaveCount(0);
    await expect(region(page, "Waiting for you")).toHaveCount(0);
    await expectAccessible(page);

    await page.goto("/clients/documents-and-messages");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(region(page, REVIEW)).toHaveCount(0);
  });

  test("a client without an adviser is not offered 'Speak to adviser' and is told whom to contact instead", async ({
    page,
  }) => {
    // issue 25 item 12: demo.factfind and demo.robo have no adviser who could call them back
    for (const [username, heading] of [
      ["demo.factfind", FACT_FIND],
      ["demo.robo", "Continue your retirement health check"],
    ] as const) {
      await signIn(page, username);
      await expect(page).toHaveURL(/\/clients\/home$/);
      // before the cookie choice, even demo.factfind's two notifications are panels in the page (the
      // pop-up waits for the cookie notice: decision 120)
      const panel = region(page, heading);
      await expect(panel).toBeVisible();
      await expect(panel).toContainText(
        "You do not have an adviser who can contact you. For help, contact Client Services:",
      );
      await expect(panel.getByRole("link", { name: "020 7946 0800" })).toHaveAttribute("href", "tel:02079460800");
      await expect(panel.getByRole("link", { name: "clientservices@northbridgewealth.example" })).toHaveAttribute(
        "href",
        "mailto:clientservices@northbridgewealth.example",
      );
      await expect(page.getByRole("button", { name: "Speak to adviser" })).toHaveCount(0);
      await expectAccessible(page);
      await page.context().clearCookies();
    }
  });

  test("a robo journey in progress shows its continue texts", async ({ page }) => {
    await signIn(page, "demo.robo");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const robo = region(page, "Continue your retirement health check");
    await expect(robo).toContainText("You have started your retirement health check. Pick up where you left off.");
    await expect(robo.getByRole("button", { name: "Continue your health check" })).toBeVisible();
    await expect(robo.getByRole("button", { name: "Close retirement health check notification" })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expectAccessible(page);
  });

  test("an adviser with a client in context sees no notification and no postponement notice", async ({ page }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await expect(page).toHaveURL(/\/advisers\/clients$/);
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Open Hartley, Eleanor" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Ellie" })).toBeVisible();
    await expect(region(page, REVIEW)).toHaveCount(0);
    await expect(region(page, "Waiting for you")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Speak to adviser" })).toHaveCount(0);
    await expectAccessible(page);

    await page.goto("/clients/documents-and-messages");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(region(page, REVIEW)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Speak to adviser" })).toHaveCount(0);
  });
});
