import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useBrowserValidation } from "~/components/browser-validation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorSummary, FailureAlert, Field, summaryErrors } from "~/components/forms";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { clientAddress } from "~/runtime/client-address.server";
import type { Failure } from "~/lib/error-catalogue";
import { shortDatePattern } from "~/lib/format";
import { logger } from "~/runtime/logger.server";
import { isRecoveryPaused } from "~/lib/recovery";
import { landingPath } from "~/lib/redirect-to";
import { localisedSetting } from "~/lib/site-settings";
import { PlanningError } from "~/planning/client.server";
import { sendForgottenUsername, startPasswordReset } from "~/planning/recovery.server";
import { commitResetState } from "~/session/reset-state.server";
import { getSite } from "~/planning/site.server";
import { HoneypotFields } from "~/components/honeypot-fields";
import { readForm } from "~/session/csrf.server";
import { checkRateLimit, rateLimitHeaders } from "~/session/rate-limit.server";
import { getPortalSession } from "~/session/session.server";
import {
  createForgottenUsernameSchema,
  ForgottenPasswordSchema,
  parseWithZod,
  RecoveryUserType,
} from "~/session/validation.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 000 §2 "Help with logging in": a Forgotten password section, and a Forgotten username
// section for clients only; a Return to login link. §4 "Forgotten password flow" (step main; the
// next steps are /login/help/reset), §5 validation, §8 messages. docs/decisions/050.
// The file is login_.help (not login.help) so that the page does not render inside login.tsx.

export const handle = { i18n: ["recovery", "auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getPortalSession(request);
  if (session) throw redirect(landingPath(session.user, null));
  const url = new URL(request.url);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "recovery")]);
  const site = await getSite(locale);
  return json({
    title: t("title"),
    userType: RecoveryUserType.parse(url.searchParams.get("userType") ?? "client"),
    dateFormat: shortDatePattern(locale),
    locale,
    expired: url.searchParams.get("expired") === "true",
    // spec 000 §3 `forgotUsernameButtonText`: the site's name for the way into the forgotten
    // username form, which here is the section's heading (docs/decisions/028).
    forgotUsernameLabel: localisedSetting(site.settings, "forgotUsernameButtonText", locale),
  });
}

type FormName = "password" | "username";
type ActionData = {
  form: FormName;
  result: SubmissionResult<string[]>;
  failure?: Failure;
  /** An i18n key shown above the form. */
  messageKey?: string;
  messageValues?: Record<string, string | number>;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, { anonymous: true });
  const address = clientAddress(request, context);
  const locale = await resolveLocale(request);
  const form: FormName = formData.get("intent") === "username" ? "username" : "password";
  const userType = RecoveryUserType.parse(formData.get("userType") ?? "client");

  if (form === "username") {
    const submission = parseWithZod(formData, { schema: createForgottenUsernameSchema(locale) });
    const wait = await checkRateLimit(address, "recovery");
    if (wait) {
      return json<ActionData>(
        {
          form,
          result: submission.reply(),
          messageKey: "errors.rateLimited",
          messageValues: { minutes: Math.ceil(wait / 60) },
        },
        { status: 429, headers: { "Retry-After": String(wait) } },
      );
    }
    if (submission.status !== "success") return json<ActionData>({ form, result: submission.reply() }, { status: 400 });
    // spec 000 §6: forgotten username is offered to clients only (role_type client).
    if (userType !== "client") return json<ActionData>({ form, result: submission.reply() }, { status: 400 });
    try {
      await sendForgottenUsername(submission.value);
    } catch (error) {
      if (!(error instanceof PlanningError)) throw error;
      logger.info("forgotten username refused", { status: error.status, address });
      // spec 000 §8: the mismatch text (the platform's 400 says the same words)
      if (error.status === 400 && error.apiMessage?.startsWith("The supplied email and date of birth")) {
        return json<ActionData>(
          { form, result: submission.reply(), messageKey: "errors.usernameMismatch" },
          { status: 400 },
        );
      }
      return json<ActionData>(
        { form, result: submission.reply(), failure: error.failure },
        { status: error.failure.status },
      );
    }
    return redirect("/login?usernameSent=true");
  }

  const submission = parseWithZod(formData, { schema: ForgottenPasswordSchema });
  const wait = await checkRateLimit(address, "recovery");
  if (wait) {
    return json<ActionData>(
      {
        form,
        result: submission.reply(),
        messageKey: "errors.rateLimited",
        messageValues: { minutes: Math.ceil(wait / 60) },
      },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  if (submission.status !== "success") return json<ActionData>({ form, result: submission.reply() }, { status: 400 });
  const reply = submission.reply();
  try {
    return await startReset(submission.value.username, userType);
  } catch (error) {
    if (!(error instanceof PlanningError)) throw error;
    // docs/decisions/163: the username's password reset is paused (alike for every username)
    if (isRecoveryPaused(error.status)) {
      logger.info("password reset paused", { address });
      return json<ActionData>({ form, result: reply, messageKey: "errors.recoveryPaused" }, { status: 429 });
    }
    return json<ActionData>({ form, result: reply, failure: error.failure }, { status: error.failure.status });
  }
}

/** Starts the reset and goes on to its step, the reference kept in the reset's cookie. */
async function startReset(username: string, userType: string): Promise<Response> {
  const started = await startPasswordReset(username);
  const cookie = await commitResetState({
    reference: started.reference,
    method: started.method,
    questions: started.questions,
    codeErrors: 0,
  });
  const next = userType === "adviser" ? "/login/help/reset?userType=adviser" : "/login/help/reset";
  return redirect(next, { headers: { "Set-Cookie": cookie } });
}

function Message({ data }: { data: ActionData | undefined }) {
  const { t } = useTranslation("recovery");
  if (!data?.messageKey) return null;
  return (
    <div className="alert alert--error" role="alert">
      <p>{t(data.messageKey, data.messageValues)}</p>
    </div>
  );
}

export default function HelpWithLoggingIn() {
  const { userType, expired } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("recovery");
  const loginHref = userType === "adviser" ? "/login?userType=adviser" : "/login";
  const passwordData = actionData?.form === "password" ? actionData : undefined;
  const usernameData = actionData?.form === "username" ? actionData : undefined;
  // The forms' state is the page's: their error summaries stand above the h1 (GOV.UK's pattern).
  const passwordForm = useForgottenPasswordForm(passwordData);
  const usernameForm = useForgottenUsernameForm(usernameData);

  return (
    <div className="login">
      <ErrorSummary formId={passwordForm[0].id} errors={summaryErrors([passwordForm[1].username])} />
      {userType === "client" ? (
        <ErrorSummary
          formId={usernameForm[0].id}
          errors={summaryErrors([usernameForm[1].email, usernameForm[1].dob])}
        />
      ) : null}
      <h1>{t("title")}</h1>
      <UserTypeTabs userType={userType} />

      {expired ? (
        <div className="alert alert--info" role="status">
          <p>{t("reset.expired")}</p>
        </div>
      ) : null}

      <ForgottenPassword data={passwordData} form={passwordForm} />
      {userType === "client" ? <ForgottenUsername data={usernameData} form={usernameForm} /> : null}

      <p className="standalone-link">
        <Link to={loginHref}>{t("returnToLogin")}</Link>
      </p>
    </div>
  );
}

/** The client and adviser tabs: each is this page for that kind of login. */
function UserTypeTabs({ userType }: { userType: string }) {
  const { t } = useTranslation("recovery");
  return (
    <nav aria-label={t("tabsLabel")} className="tabs">
      <ul className="tabs__list">
        {(["client", "adviser"] as const).map((type) => (
          <li key={type}>
            <Link
              to={`?userType=${type}`}
              className={`tabs__tab${userType === type ? " tabs__tab--active" : ""}`}
              aria-current={userType === type ? "page" : undefined}
              replace
            >
              {t(`tab.${type}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function useForgottenPasswordForm(data: ActionData | undefined) {
  const validation = useBrowserValidation(() =>
    import("~/lib/recovery-schemas").then((m) => m.ForgottenPasswordSchema),
  );
  return useForm({
    id: "forgotten-password",
    lastResult: data?.result,
    ...validation.form,
  });
}

function useForgottenUsernameForm(data: ActionData | undefined) {
  const { locale } = useLoaderData<typeof loader>();
  const validation = useBrowserValidation(
    () => import("~/lib/recovery-schemas").then((m) => m.createForgottenUsernameSchema(locale)),
    {},
    [locale],
  );
  return useForm({
    id: "forgotten-username",
    lastResult: data?.result,
    ...validation.form,
  });
}

/** 'Forgotten your password?': the username, to start a reset. */
function ForgottenPassword({
  data,
  form: [form, fields],
}: {
  data: ActionData | undefined;
  form: ReturnType<typeof useForgottenPasswordForm>;
}) {
  const { userType } = useLoaderData<typeof loader>();
  const { t } = useTranslation("recovery");
  const pending = useNavigation().state === "submitting";
  return (
    <section className="help-section" aria-labelledby="forgotten-password-heading">
      <h2 id="forgotten-password-heading">{t("password.heading")}</h2>
      <p>{t("password.intro")}</p>
      <Message data={data} />
      <FailureAlert failure={data?.failure} />
      <Form method="post" {...getFormProps(form)} className="form">
        <AuthenticityTokenInput />
        <HoneypotFields />
        <input type="hidden" name="intent" value="password" />
        <input type="hidden" name="userType" value={userType} />
        <Field meta={fields.username} label={t("password.username")} autoComplete="username" />
        <button type="submit" className="button" disabled={pending}>
          {t("password.submit")}
        </button>
      </Form>
    </section>
  );
}

/** 'Forgotten your username?' (clients only): email address and date of birth. */
function ForgottenUsername({
  data,
  form: [form, fields],
}: {
  data: ActionData | undefined;
  form: ReturnType<typeof useForgottenUsernameForm>;
}) {
  const { dateFormat, forgotUsernameLabel } = useLoaderData<typeof loader>();
  const { t } = useTranslation("recovery");
  const pending = useNavigation().state === "submitting";
  return (
    <section className="help-section" aria-labelledby="forgotten-username-heading">
      <h2 id="forgotten-username-heading">{forgotUsernameLabel ?? t("username.heading")}</h2>
      <p>{t("username.intro")}</p>
      <Message data={data} />
      <FailureAlert failure={data?.failure} />
      <Form method="post" {...getFormProps(form)} className="form">
        <AuthenticityTokenInput />
        <HoneypotFields idSuffix="username" />
        <input type="hidden" name="intent" value="username" />
        <input type="hidden" name="userType" value="client" />
        <Field meta={fields.email} label={t("username.email")} type="email" autoComplete="email" />
        <Field
          meta={fields.dob}
          label={t("username.dob")}
          hint={t("username.dobHint", { format: dateFormat })}
          autoComplete="bday"
          inputClassName="field__input--short"
        />
        <button type="submit" className="button" disabled={pending}>
          {t("username.submit")}
        </button>
      </Form>
    </section>
  );
}

// docs/decisions/046: a refused post carries Retry-After with and without JavaScript.
export const headers = rateLimitHeaders;

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
