import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FailureAlert } from "~/components/forms";
import { TableRegion } from "~/components/table-region";
import { useTranslation } from "~/components/translation";
import type { Failure } from "~/lib/error-catalogue";
import { PAGE_PATHS } from "~/lib/navigation";
import { type BrowserName, sessionRows, type SessionRow } from "~/lib/signed-in-sessions.server";
import { endOtherSessions, endSession, listSessions } from "~/planning/sessions.server";
import { logger } from "~/runtime/logger.server";
import { readForm } from "~/session/csrf.server";
import { attempt } from "~/session/failures.server";
import { requireClient } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { redirectWithToast } from "~/session/toast.server";

// ASVS V3.3.4 "Where you're signed in" (docs/decisions/170): the browsers signed in to the client's
// account, with their address, when each signed in and was last active, this browser marked; sign
// out any other one, or all the others. Plain forms: it works without JavaScript. Clients only, as
// change password is (spec 000 §6); the platform lists only the caller's own sessions.

export const handle = { i18n: ["security"] };

const PAGE = PAGE_PATHS.sessions;

export async function loader({ request }: LoaderFunctionArgs) {
  const { planning, user } = await requireClient(request);
  const [t, locale, listed] = await Promise.all([
    getFixedT(request, "security"),
    resolveLocale(request),
    attempt(request, listSessions(planning)),
  ]);
  const title = t("sessions.title");
  if (!listed.ok) {
    logger.error("sessions unavailable", { status: listed.error.status });
    return json({ title, loadFailed: true, sessions: [] as SessionRow[] });
  }
  return json({ title, loadFailed: false, sessions: sessionRows(listed.value, user.userTimezone, locale) });
}

type ActionData = { failure: Failure };

function sessionId(value: FormDataEntryValue | null): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export async function action({ request }: ActionFunctionArgs) {
  const { planning, user } = await requireClient(request);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "end") {
    const id = sessionId(formData.get("id"));
    if (id === null) throw new Response("Bad request", { status: 400 });
    const ended = await attempt(request, endSession(planning, id));
    if (!ended.ok && ended.error.status === 404)
      return redirectWithToast(PAGE, { type: "info", title: "security:sessions.alreadyEnded" });
    if (!ended.ok) return json<ActionData>({ failure: ended.error.failure }, { status: ended.error.failure.status });
    logger.info("session ended by its user", { userId: user.id, sessionId: id });
    return redirectWithToast(PAGE, { type: "success", title: "security:sessions.ended" });
  }
  if (intent === "endOthers") {
    const ended = await attempt(request, endOtherSessions(planning));
    if (!ended.ok) return json<ActionData>({ failure: ended.error.failure }, { status: ended.error.failure.status });
    logger.info("other sessions ended by their user", { userId: user.id });
    return redirectWithToast(PAGE, { type: "success", title: "security:sessions.othersEnded" });
  }
  throw new Response("Bad request", { status: 400 });
}

/** 'Chrome on Windows', 'Chrome', 'Unknown browser'. */
function useBrowserLabel() {
  const { t } = useTranslation("security");
  return ({ browser, os }: BrowserName): string => {
    if (os) return t("sessions.browserOn", { browser: browser ?? t("sessions.unknownBrowser"), os });
    return browser ?? t("sessions.unknownBrowser");
  };
}

function SignOutForm({ session, label }: { session: SessionRow; label: string }) {
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  return (
    <Form method="post">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="end" />
      <input type="hidden" name="id" value={session.id} />
      <button type="submit" className="button button--secondary" disabled={navigation.state === "submitting"}>
        {t("sessions.signOut")}
        <span className="visually-hidden">
          {" "}
          {t("sessions.signOutWhich", { browser: label, lastActive: session.lastActiveAt })}
        </span>
      </button>
    </Form>
  );
}

function SessionTable({ sessions }: { sessions: SessionRow[] }) {
  const { t } = useTranslation("security");
  const labelOf = useBrowserLabel();
  return (
    // its own scrolling region at 320 px, named by the caption (decision 117)
    <TableRegion captionId="sessions-caption">
      <table>
        <caption id="sessions-caption" className="visually-hidden">
          {t("sessions.caption")}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t("sessions.browser")}</th>
            <th scope="col">{t("sessions.address")}</th>
            <th scope="col">{t("sessions.signedIn")}</th>
            <th scope="col">{t("sessions.lastActive")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("sessions.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => {
            const label = labelOf(s.browser);
            return (
              <tr key={s.id}>
                <th scope="row">
                  {label}
                  {s.current ? (
                    <span className="badge badge--neutral sessions__this">{t("sessions.thisBrowser")}</span>
                  ) : null}
                </th>
                <td>{s.address ?? t("sessions.unknownAddress")}</td>
                <td>{s.signedInAt}</td>
                <td>{s.current ? t("sessions.now") : s.lastActiveAt}</td>
                <td>{s.current ? null : <SignOutForm session={s} label={label} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}

export default function SignedInSessions() {
  const { loadFailed, sessions } = useLoaderData<typeof loader>();
  const answer = useActionData<ActionData>();
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div className="page page--sessions">
      <h1>{t("sessions.title")}</h1>
      <p className="page__intro">{t("sessions.intro")}</p>
      <FailureAlert failure={answer?.failure} />
      {loadFailed ? (
        <div className="alert alert--error" role="alert">
          <p>{t("sessions.errors.load")}</p>
        </div>
      ) : (
        <>
          <SessionTable sessions={sessions} />
          {others > 0 ? (
            <Form method="post" className="form">
              <AuthenticityTokenInput />
              <input type="hidden" name="intent" value="endOthers" />
              <button type="submit" className="button" disabled={navigation.state === "submitting"}>
                {t("sessions.signOutOthers")}
              </button>
            </Form>
          ) : (
            <p>{t("sessions.onlyThis")}</p>
          )}
          <p>{t("sessions.passwordHint")}</p>
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.title} | Client Online` : "Client Online" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
