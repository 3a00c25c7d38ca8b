import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { safeRedirectPath } from "~/lib/redirect-to";
import { logout } from "~/planning/auth.server";
import { readForm } from "~/session/csrf.server";
import { getFixedT } from "~/session/i18next.server";
import { getPortalSession, signOutHeaders } from "~/session/session.server";
import { errorPageTitle } from "~/lib/error-title";

/** spec 000 §2 "Log out menu item": the confirmation page's address (docs/decisions/096). */
function confirmationPath(returnTo: string | null): string {
  return `/logout?${new URLSearchParams({ confirm: "review", ...(returnTo ? { returnTo } : {}) })}`;
}

// spec 000 §4 "Login flow" 6: logging out deletes the platform session, then the portal's cookie.
// spec 000 §2 "Log out menu item": while a review is in progress the menu's form carries
// confirm=review; without the user's confirmed=yes it goes to the confirmation page first (with
// JavaScript the menu asks in a dialog and posts confirmed=yes itself).
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  if (formData.get("confirm") === "review" && formData.get("confirmed") !== "yes") {
    return redirect(confirmationPath(safeRedirectPath(formData.get("returnTo"))));
  }
  const session = await getPortalSession(request);
  if (session) {
    await logout(session.token);
  }
  return redirect("/login?reason=UserLoggedOut", { headers: await signOutHeaders(request) });
}

// Log out is a form post; a visit to /logout goes home (which leads to login when signed out),
// except the confirmation page of a signed-in user (spec 000 §2, docs/decisions/096).
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("confirm") !== "review") return redirect("/");
  const [session, t] = await Promise.all([getPortalSession(request), getFixedT(request)]);
  if (!session) return redirect("/");
  return json({
    returnTo: safeRedirectPath(url.searchParams.get("returnTo")) ?? "/",
    title: t("nav.logoutConfirm.title"),
  });
}

export default function LogoutConfirmation() {
  const { returnTo } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigation = useNavigation();
  const loggingOut = navigation.state !== "idle" && navigation.formAction === "/logout";
  return (
    <section className="logout-confirmation" aria-labelledby="logout-confirmation-heading">
      <h1 id="logout-confirmation-heading">{t("nav.logoutConfirm.title")}</h1>
      <p>{t("nav.logoutConfirm.text")}</p>
      <Form method="post" action="/logout" className="button-group">
        <AuthenticityTokenInput />
        <input type="hidden" name="confirm" value="review" />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className="button" disabled={loggingOut} data-no-heartbeat>
          {loggingOut ? t("nav.loggingOut") : t("nav.logoutConfirm.confirm")}
        </button>
        <Link to={returnTo} className="button button--secondary">
          {t("nav.logoutConfirm.cancel")}
        </Link>
      </Form>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data && "title" in data ? `${data.title} – Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
