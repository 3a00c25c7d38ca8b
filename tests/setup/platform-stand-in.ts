// Before any test file replaces the process's fetch: the planning client then takes a replaced one
// for a stand-in for the platform (app/planning/platform-stand-in.server.ts).
import { beforeEach } from "vitest";
import { forgetKeptAnswers } from "~/planning/kept-answers.server";
import { followReplacedFetch } from "~/planning/platform-stand-in.server";

followReplacedFetch();

// Answers the portal keeps between pages (app/planning/kept-answers.server.ts) are forgotten before
// each test, so that what one test's platform (or stand-in) answered never serves another's.
beforeEach(() => {
  forgetKeptAnswers();
});
