import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import {
  ErrorSummary,
  FailureAlert,
  Field,
  ShowPasswordToggle,
  summaryErrors,
  useRemountKey,
} from "~/components/forms";
import { TableRegion } from "~/components/table-region";
import { useTranslation } from "~/components/translation";
import type { Failure } from "~/lib/error-catalogue";
import { PAGE_PATHS } from "~/lib/navigation";
import { currentPasswordRefusal } from "~/lib/security";
import { type BrowserName, sessionRows, type SessionRow } from "~/lib/signed-in-sessions.server";
import { endOtherSessions, endSession, listSessions } from "~/planning/sessions.server";
import { logger } from "~/runtime/logger.server";
import { readForm } from "~/session/csrf.server";
import { attempt } from "~/session/failures.server";
import { requireClient } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { redirectWithToast } from "~/session/toast.server";
import { CurrentPasswordSchema, parseWithZod } from "~/session/validation.server";
import { errorPageTitle } from "~/lib/error-title";

// ASVS V3.3.4 "Where you're signed in" (docs/decisions/170): the browsers signed in to the client's
// account, with their address, when each signed in and was last active, this browser marked; sign
// out any other one, or all the others. Plain forms: it works without JavaScript. Clients only, as
// change password is (spec 000 §6); the platform lists only the caller's own sessions. Signing a
// browser out asks for the current password first (ASVS V3.3.4, decision 179): one form holds the
// field and 'Sign out all other browsers', and each row's 'Sign out' button submits it too.

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

type ActionData = { result: SubmissionResult<string[]>; failure?: Failure; messageKey?: string };

const FORM_ID = "sign-out";

function sessionId(value: FormDataEntryValue | null): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export async function action({ request }: ActionFunctionArgs) {
  const { planning, user } = await requireClient(request);
  const formData = await readForm(request);
  // which button: a row's 'Sign out' (`end`, the session's id) or 'Sign out all other browsers'
  const end = formData.get("end");
  const id = end === null ? null : sessionId(end);
  if (end !== null && id === null) throw new Response("Bad request", { status: 400 });
  if (end === null && formData.get("intent") !== "endOthers") throw new Response("Bad request", { status: 400 });
  const submission = parseWithZod(formData, { schema: CurrentPasswordSchema });
  const reply = (options: Parameters<typeof submission.reply>[0] = {}) =>
    submission.reply({ hideFields: ["currentPassword"], ...options });
  if (submission.status !== "success") return json<ActionData>({ result: reply() }, { status: 400 });
  const { currentPassword } = submission.value;
  const ended = await attempt(
    request,
    id === null ? endOtherSessions(planning, currentPassword) : endSession(planning, id, currentPassword),
  );
  if (!ended.ok) {
    if (id !== null && ended.error.status === 404)
      return redirectWithToast(PAGE, { type: "info", title: "security:sessions.alreadyEnded" });
    const refusal = currentPasswordRefusal(ended.error.status, ended.error.apiMessage);
    if (refusal && "fieldError" in refusal)
      return json<ActionData>(
        { result: reply({ fieldErrors: { currentPassword: [refusal.fieldError] } }) },
        { status: 400 },
      );
    if (refusal) return json<ActionData>({ result: reply(), messageKey: refusal.messageKey }, { status: 403 });
    return json<ActionData>({ result: reply(), failure: ended.error.failure }, { status: ended.error.failure.status });
  }
  if (id === null) {
    logger.info("other sessions ended by their user", { userId: user.id });
    return redirectWithToast(PAGE, { type: "success", title: "security:sessions.othersEnded" });
  }
  logger.info("session ended by its user", { userId: user.id, sessionId: id });
  return redirectWithToast(PAGE, { type: "success", title: "security:sessions.ended" });
}

/** 'Chrome on Windows', 'Chrome', 'Unknown browser'. */
function useBrowserLabel() {
  const { t } = useTranslation("security");
  return ({ browser, os }: BrowserName): string => {
    if (os) return t("sessions.browserOn", { browser: browser ?? t("sessions.unknownBrowser"), os });
    return browser ?? t("sessions.unknownBrowser");
  };
}

/** A row's 'Sign out': a button of the password's form (`form`), so it posts that password too. */
function SignOutButton({ session, label }: { session: SessionRow; label: string }) {
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  return (
    <button
      type="submit"
      form={FORM_ID}
      name="end"
      value={session.id}
      className="button button--secondary"
      disabled={navigation.state === "submitting"}
    >
      {t("sessions.signOut")}
      <span className="visually-hidden">
        {" "}
        {t("sessions.signOutWhich", { browser: label, lastActive: session.lastActiveAt })}
      </span>
    </button>
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
                <td>{s.current ? null : <SignOutButton session={s} label={label} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}

/**
 * The current password (decision 179) and 'Sign out all other browsers'; the rows' buttons, in the
 * table below, belong to this form too.
 */
function SignOutForm({ answer }: { answer: ActionData | undefined }) {
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  const remountKey = useRemountKey(answer);
  const [showPassword, setShowPassword] = useState(false);
  const [form, fields] = useForm<{ currentPassword: string }>({
    id: FORM_ID,
    lastResult: answer?.result,
    shouldRevalidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <ErrorSummary errors={summaryErrors([fields.currentPassword])} />
      <AuthenticityTokenInput />
      <Field
        key={`current-password-${remountKey}`}
        meta={fields.currentPassword}
        label={t("changePassword.current")}
        hint={t("sessions.currentPasswordHint")}
        type={showPassword ? "text" : "password"}
        autoComplete="current-password"
        secret
      />
      <ShowPasswordToggle
        id="show-current-password"
        label={t("changePassword.showCurrent")}
        checked={showPassword}
        onChange={setShowPassword}
      />
      <button
        type="submit"
        name="intent"
        value="endOthers"
        className="button"
        disabled={navigation.state === "submitting"}
      >
        {t("sessions.signOutOthers")}
      </button>
    </Form>
  );
}

export default function SignedInSessions() {
  const { loadFailed, sessions } = useLoaderData<typeof loader>();
  const answer = useActionData<ActionData>();
  const { t } = useTranslation("security");
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div className="page page--sessions">
      <h1>{t("sessions.title")}</h1>
      <p className="page__intro">{t("sessions.intro")}</p>
      {answer?.messageKey ? (
        <div className="alert alert--error" role="alert">
          <p>{t(answer.messageKey)}</p>
        </div>
      ) : null}
      <FailureAlert failure={answer?.failure} />
      {loadFailed ? (
        <div className="alert alert--error" role="alert">
          <p>{t("sessions.errors.load")}</p>
        </div>
      ) : (
        <>
          {others > 0 ? <SignOutForm answer={answer} /> : null}
          <SessionTable sessions={sessions} />
          {others > 0 ? null : <p>{t("sessions.onlyThis")}</p>}
          <p>{t("sessions.passwordHint")}</p>
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
