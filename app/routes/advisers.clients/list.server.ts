// spec 002 "Adviser client list" §4 "Adviser client list flow" and "Preview access", §5 "Client
// search": the list's loader (the search a URL names) and its action (open a client in context).
// Server only; route.tsx re-exports both.

import { unstable_coerceFormValue as coerceFormValue } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { accessLevelToSend, dateRulesFor, hasSearched, parsePages, parseSort } from "~/lib/client-search";
import type { Failure } from "~/lib/error-catalogue";
import { keptIn } from "~/lib/format";
import { formatDate } from "~/lib/format-date.server";
import { safeRedirectPath } from "~/lib/redirect-to";
import { clientsLandingPathOf, type SiteAccessLevel } from "~/lib/site-access";
import { searchClients, setClientInContext } from "~/planning/clients.server";
import { readForm } from "~/session/csrf.server";
import { orFail, settle } from "~/session/failures.server";
import { requireAdviser } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { updateSessionUser } from "~/session/session.server";
import { createClientSearchSchema, OpenClientSchema, parseWithZod } from "~/session/validation.server";

export type ClientRow = {
  id: number;
  name: string;
  email: string | null;
  dob: string | null;
  postcode: string | null;
  hasLogin: boolean;
  own: SiteAccessLevel;
};

/**
 * The search's date rules and schema for a locale, made once with conform's coercion of form
 * values (which `parseWithZod` otherwise makes again from the schema on every call; issue 38). The
 * locales are the portal's few.
 */
function makeSearch(locale: string) {
  const rules = dateRulesFor(locale);
  return { rules, schema: coerceFormValue(createClientSearchSchema(rules)) };
}
const searchesByLocale = new Map<string, ReturnType<typeof makeSearch>>();
const searchOf = (locale: string) => keptIn(searchesByLocale, locale, () => makeSearch(locale));

export async function loader({ request }: LoaderFunctionArgs) {
  const { planning } = await requireAdviser(request);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "advisers")]);
  const params = new URL(request.url).searchParams;
  const sort = parseSort(params.get("sort"));
  const pages = parsePages(params.get("pages"));
  const values = {
    name: params.get("name") ?? "",
    dob: params.get("dob") ?? "",
    postcode: params.get("postcode") ?? "",
  };
  const base = { title: t("clientList.title"), locale, sort, pages, values };

  // spec 002 §4: before the first search nothing is listed.
  if (!hasSearched(params)) return json({ ...base, result: null, results: null });

  const { rules, schema } = searchOf(locale);
  const submission = parseWithZod(params, { schema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return json({ ...base, result: submission.reply(), results: null }, { status: 400 });
  }
  const { name, dob, postcode } = submission.value;
  const found = await orFail(
    request,
    searchClients(planning, { name, dob: dob ? rules.parse(dob) : null, postcode, sort, pages }),
  );
  const rows: ClientRow[] = found.clients.map((c) => ({
    id: c.id,
    name: c.entity_name,
    email: c.email?.trim() || null,
    dob: c.dob ? formatDate(c.dob, locale, "short") : null,
    postcode: c.postcode?.trim() || null,
    // a login whose level has no mapping cannot be opened as the client sees it: preview only
    hasLogin: c.user_id !== null && c.user_id !== undefined && c.client_access_level !== null,
    own: c.client_access_level ?? "NotAssigned",
  }));
  return json({ ...base, result: null, results: { rows, hasMore: found.hasMore } });
}

export type ActionData = { failure?: Failure; rowError?: { clientId: number; message: string } };

/** spec 002 §4 "Preview access": put the chosen client in context at the chosen view, then open the clients area. */
export async function action({ request }: ActionFunctionArgs) {
  const { user, planning } = await requireAdviser(request);
  const formData = await readForm(request);
  const parsed = OpenClientSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const clientId = Number(formData.get("clientId"));
    const message = parsed.error.issues.find((i) => i.path[0] === "view")?.message ?? "advisers:clientList.errors.view";
    return json<ActionData>(
      { rowError: Number.isInteger(clientId) && clientId > 0 ? { clientId, message } : undefined },
      { status: 400 },
    );
  }
  const { clientId, view, own } = parsed.data;
  const outcome = await settle(request, setClientInContext(planning, clientId, accessLevelToSend(view, own)));
  if (!outcome.ok) return json<ActionData>({ failure: outcome.failure }, { status: outcome.failure.status });
  const returnTo = safeRedirectPath(formData.get("returnTo"));
  const listUrl = returnTo && /^\/advisers\/clients(\?|$)/.test(returnTo) ? returnTo : null;
  const cookie = await updateSessionUser(request, { ...user, clientInContext: { ...outcome.value, listUrl } });
  // straight to the client's landing page, not through the clients' index (issue 38)
  return redirect(clientsLandingPathOf(outcome.value.siteAccessLevel), { headers: { "Set-Cookie": cookie } });
}
