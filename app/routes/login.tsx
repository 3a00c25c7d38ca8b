import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorSummary, FailureAlert, Field, summaryErrors } from "~/components/forms";
import { getFixedT } from "~/i18next.server";
import { clientAddress } from "~/lib/client-address.server";
import type { Failure } from "~/lib/error-catalogue";
import { logger } from "~/lib/logger.server";
import { landingPath, safeRedirectPath } from "~/lib/redirect-to";
import { login } from "~/planning/auth.server";
import { createPlanningClient, PlanningError } from "~/planning/client.server";
import { fetchIdleMinutes, fetchSessionUser } from "~/planning/session.server";
import { readForm } from "~/session/csrf.server";
import { createUserSession, getPortalSession } from "~/session/session.server";

export const handle = { i18n: ["auth"] };

const UserType = z.enum(["client", "adviser"]);

export const LoginSchema = z.object({
  userType: UserType.default("client"),
  username: z.string({ required_error: "auth:login.errors.username" }).trim().min(1, "auth:login.errors.username"),
  password: z.string({ required_error: "auth:login.errors.password" }).min(1, "auth:login.errors.password"),
  redirectTo: z.string().optional(),
});

/** spec 000 §2 "Login redirect variants" and the success alerts, read from the query. */
export function loginNotice(params: URLSearchParams): { kind: "success" | "info"; key: string } | null {
  if (params.get("passwordChanged") === "true") return { kind: "success", key: "login.passwordChanged" };
  if (params.get("usernameSent") === "true") return { kind: "success", key: "login.usernameSent" };
  if (params.get("reason") === "UserLoggedOut") return { kind: "info", key: "login.loggedOut" };
  if (params.get("reason") === "LostSession" || params.get("error") === "LostSession") {
    return { kind: "info", key: "login.lostSession" };
  }
  return null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const session = await getPortalSession(request);
  // A signed-in user who comes back to the login page is taken home rather than signed out by a
  // mere page visit (a GET must not change state); signing out is the Log out button.
  if (session) throw redirect(landingPath(session.user.role, redirectTo));
  const t = await getFixedT(request, "auth");
  return json({
    userType: UserType.catch("client").parse(url.searchParams.get("userType") ?? "client"),
    redirectTo,
    notice: loginNotice(url.searchParams),
    title: t("login.title"),
  });
}

type ActionData = { result: SubmissionResult<string[]>; failure?: Failure; messageKey?: string };

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request, { anonymous: true });
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") {
    return json<ActionData>({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const { username, password, userType } = submission.value;
  const refuse = (status: number, extra: Omit<ActionData, "result">) =>
    json<ActionData>({ result: submission.reply({ hideFields: ["password"] }), ...extra }, { status });

  let outcome: Awaited<ReturnType<typeof login>>;
  try {
    outcome = await login({ username, password, userType });
    logger.info("sign-in", { outcome: outcome.status, userType, address: clientAddress(request) });
  } catch (error) {
    if (!(error instanceof PlanningError)) throw error;
    logger.info("sign-in refused", { status: error.status, userType, address: clientAddress(request) });
    // spec 000 §8 "Sign-in and security messages"
    if (error.status === 401) return refuse(401, { messageKey: "login.invalidCredentials" });
    if (error.apiMessage === "Account has been disabled.") return refuse(403, { messageKey: "login.disabled" });
    if (error.apiMessage === "Account deactivated") return refuse(403, { messageKey: "login.deactivated" });
    return refuse(error.failure.status, { failure: error.failure });
  }
  if (outcome.status !== "LoginSuccess") {
    // The additional sign-in steps are not offered by this portal yet: say so plainly.
    return refuse(409, { failure: { kind: "api", status: 409, detail: null } });
  }

  const planning = createPlanningClient({ token: outcome.token });
  try {
    const [user, idleMinutes] = await Promise.all([fetchSessionUser(planning), fetchIdleMinutes(planning)]);
    return createUserSession({
      token: outcome.token,
      user,
      idleMinutes,
      redirectTo: landingPath(user.role, safeRedirectPath(submission.value.redirectTo)),
    });
  } catch (error) {
    if (!(error instanceof PlanningError)) throw error;
    return refuse(error.failure.status, { failure: error.failure });
  }
}

export default function LoginPage() {
  const { userType, redirectTo, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("auth");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [showPassword, setShowPassword] = useState(false);
  // A refused password is never left in the page: each answer of the action remounts the field empty.
  const passwordKey = useMemo(() => (actionData ? Math.random() : 0), [actionData]);
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.result,
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  const tabQuery = (type: string) => {
    const params = new URLSearchParams({ userType: type });
    if (redirectTo) params.set("redirectTo", redirectTo);
    return `?${params.toString()}`;
  };
  const pending = navigation.state !== "idle" && navigation.formAction?.startsWith("/login");

  return (
    <div className="login">
      <h1>{t("login.title")}</h1>
      <nav aria-label={t("login.tabsLabel")} className="tabs">
        <ul className="tabs__list">
          {(["client", "adviser"] as const).map((type) => (
            <li key={type}>
              <Link
                to={tabQuery(type)}
                className={`tabs__tab${userType === type ? " tabs__tab--active" : ""}`}
                aria-current={userType === type ? "page" : undefined}
                replace
              >
                {t(`login.tab.${type}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {notice ? (
        <div className={`alert alert--${notice.kind}`} role="status">
          <p>{t(notice.key)}</p>
        </div>
      ) : null}
      {actionData?.messageKey ? (
        <div className="alert alert--error" role="alert">
          <p>{t(actionData.messageKey)}</p>
        </div>
      ) : null}
      <FailureAlert failure={actionData?.failure} />

      <Form method="post" {...getFormProps(form)} className="form login__form">
        <ErrorSummary errors={summaryErrors([fields.username, fields.password])} />
        <AuthenticityTokenInput />
        <HoneypotInputs />
        <input type="hidden" name="userType" value={userType} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field meta={fields.username} label={t("login.username")} autoComplete="username" />
        <Field
          key={passwordKey}
          meta={fields.password}
          label={t("login.password")}
          type={showPassword ? "text" : "password"}
          autoComplete="current-password"
          secret
        />
        {hydrated ? (
          <div className="checkbox">
            <input
              id="show-password"
              type="checkbox"
              checked={showPassword}
              onChange={(e) => setShowPassword(e.currentTarget.checked)}
            />
            <label htmlFor="show-password">{t("login.showPassword")}</label>
          </div>
        ) : null}
        <button type="submit" className="button" disabled={pending}>
          {t("login.submit")}
        </button>
      </Form>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Client Online" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
