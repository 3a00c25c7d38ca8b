import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotFields } from "~/components/honeypot-fields";
import { useBrowserValidation } from "~/components/browser-validation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { afterHydration, lazyPart } from "~/components/lazy-part";
import {
  ErrorSummary,
  Field,
  type SummaryError,
  summaryErrors,
  ShowPasswordToggle,
  useRemountKey,
} from "~/components/forms";
import { SignInStep as SignInStepOnServer } from "./sign-in-steps.server";
import { StepAlert, stepTitleKey } from "./step-alert";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { clientAddress } from "~/runtime/client-address.server";
import { logger } from "~/runtime/logger.server";
import { landingPath, safeRedirectPath } from "~/lib/redirect-to";
import { passwordFormSettings } from "~/lib/security";
import { SITE_ACCESS_MESSAGE_KEYS, siteAccessProblemOf } from "~/lib/site-access";
import { localisedSetting, loginFailureMessageOf } from "~/lib/site-settings";
import { intentOf, LOGIN_CONSTRAINT, type LoginStep } from "~/lib/sign-in-steps";
import { createPlanningClient } from "~/planning/client.server";
import { platformSessionEnded } from "~/planning/session.server";
import { cancelSignIn, signIn } from "~/planning/sign-in.server";
import { getSite } from "~/planning/site.server";
import { readForm } from "~/session/csrf.server";
import { clearLoginState, readLoginState } from "~/session/login-state.server";
import { deviceFor, readKnownDevices } from "~/session/known-device.server";
import { countSignIn, rateLimitHeaders, type SignInCounter } from "~/session/rate-limit.server";
import { getPortalSession, signOutHeaders } from "~/session/session.server";
import {
  alertFor,
  follow,
  type LoginActionData,
  loginPath,
  LoginSchema,
  parseWithZod,
  passkeySignIn,
  rateLimited,
  sessionNotFound,
  stepAction,
  stepView,
  usernameOutcome,
  UserType,
} from "./login.server";
import { errorPageTitle } from "~/lib/error-title";

export const handle = { i18n: ["auth", "security"] };

/** A sign-in step's form: in the first load of a page that shows a step only. */
const SignInStep = lazyPart("sign-in-step", SignInStepOnServer, () =>
  import("./sign-in-steps").then((m) => m.SignInStep),
);
/** 'Login using biometrics' and the passkey autofill: shown only once the browser runs the page. */
const PasskeySignIn = afterHydration(() => import("./passkey-sign-in").then((m) => m.PasskeySignIn));

export type LoginNotice = { kind: "success" | "info" | "error"; key: string };

/** spec 000 §2 "Login redirect variants" and the success alerts, read from the query. */
export function loginNotice(params: URLSearchParams): LoginNotice | null {
  // spec 000 §4 and §8: the site access gate ended the session (docs/decisions/038)
  const siteAccess = siteAccessProblemOf(params.get("error"));
  if (siteAccess) return { kind: "error", key: SITE_ACCESS_MESSAGE_KEYS[siteAccess] };
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
  const [session, state, t] = await Promise.all([
    getPortalSession(request),
    Promise.resolve(readLoginState(request)),
    getFixedT(request, "auth"),
  ]);
  // A signed-in user who comes back to the login page is taken home rather than signed out by a
  // mere page visit (a GET must not change state); signing out is the Log out button. A cookie
  // whose platform session has ended is no sign-in: a response that crossed the Log out (a
  // heartbeat's refreshed cookie) or an old copy. It is dropped, with a signed-out visitor's
  // anti-forgery token, and the login page shown again: its forms then carry that token, not the
  // ended session's (docs/decisions/167).
  const headers = new Headers();
  if (session) {
    if (!(await platformSessionEnded(createPlanningClient({ token: session.token })))) {
      throw redirect(
        landingPath(session.user, redirectTo),
        state ? { headers: { "Set-Cookie": clearLoginState() } } : undefined,
      );
    }
    throw redirect(`${url.pathname}${url.search}`, { headers: await signOutHeaders(request) });
  }
  // spec 000 §4: Return to login resets the login state (also reachable as a link, /login?reset).
  if (url.searchParams.has("reset")) {
    if (state) await cancelSignIn(state.ticket);
    headers.append("Set-Cookie", clearLoginState());
    throw redirect(loginPath(state ?? { userType: userTypeOf(url), redirectTo }), { headers });
  }
  const locale = await resolveLocale(request);
  const [step, site] = await Promise.all([state ? stepView(state.step, request) : null, getSite(locale)]);
  const userType = state?.userType ?? userTypeOf(url);
  return json(
    {
      userType,
      redirectTo,
      notice: step ? null : loginNotice(url.searchParams),
      step,
      title: step ? t(stepTitleKey(step)) : t("login.title"),
      // The forced password change is the Change Password form, with the site's meter and guidance.
      passwordForm: passwordFormSettings(site.settings, locale),
      // spec 000 §3 `usernameHint`, under the client tab's Username field (docs/decisions/028)
      usernameHint: userType === "client" ? localisedSetting(site.settings, "usernameHint", locale) : null,
    },
    { headers },
  );
}

function userTypeOf(url: URL): "client" | "adviser" {
  return UserType.catch("client").parse(url.searchParams.get("userType") ?? "client");
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Every form of the login page is anonymous: the CSRF token and the honeypot on each.
  const formData = await readForm(request, { anonymous: true });
  const intent = intentOf(formData.get("intent"));
  const address = clientAddress(request, context);
  // docs/decisions/101: a passkey's answer, from the login page's script
  if (intent === "passkey") return passkeySignIn(request, formData, address);
  const state = readLoginState(request);
  if (intent !== "login") {
    // The sign-in part-way has expired (the cookie lives as long as a ticket): start again.
    if (!state)
      return intent === "cancel"
        ? redirect("/login", { headers: { "Set-Cookie": clearLoginState() } })
        : sessionNotFound();
    return stepAction({ request, formData, state, intent, address });
  }

  const submission = parseWithZod(formData, { schema: LoginSchema });
  const reply = () => submission.reply({ hideFields: ["password"] });
  const limited = await rateLimited(address, () => ({ step: null, formId: "login", result: reply() }));
  if (limited) return limited;
  if (submission.status !== "success") {
    return json<LoginActionData>({ step: null, formId: "login", result: reply() }, { status: 400 });
  }
  const { username, password, userType } = submission.value;
  // docs/decisions/115 and 173: the username's failed sign-ins, from any address, before the
  // platform is asked: this browser's own when it has signed in as the user, else every unknown browser's
  const known = deviceFor(await readKnownDevices(request), username);
  const counter: SignInCounter = { username, device: known?.nonce ?? null };
  const usernameLimited = await rateLimited(address, () => ({ step: null, formId: "login", result: reply() }), counter);
  if (usernameLimited) return usernameLimited;
  const refuse = (status: number, extra: Omit<LoginActionData, "result" | "formId">) =>
    json<LoginActionData>({ step: null, formId: "login", result: reply(), ...extra }, { status });

  const outcome = await signIn({ username, password, userType });
  const counted = usernameOutcome(outcome);
  // ASVS V7.2.1: the platform logs the decision with the user's id; the portal what it saw of it
  logger.info("auth", {
    outcome: counted === "succeeded" ? "success" : counted === "failed" ? "failure" : "refused",
    step: "password",
    platformAnswer:
      outcome.kind === "step" ? outcome.step.status : outcome.kind === "success" ? "LoginSuccess" : outcome.kind,
    status: outcome.kind === "refused" || outcome.kind === "retry" ? outcome.status : undefined,
    knownDevice: known !== null,
    userType,
    address,
  });
  await countSignIn(address, counter, counted);
  if (outcome.kind === "refused" || outcome.kind === "retry") {
    // spec 000 §8 "Sign-in and security messages"
    if (outcome.status === 401) {
      // spec 000 §8: the invalid-credentials text, or the one the site configures (decision 028)
      const locale = await resolveLocale(request);
      const configured = loginFailureMessageOf((await getSite(locale)).settings, locale);
      return refuse(401, {
        alert: configured
          ? { kind: "error", text: configured, field: "password" }
          : { kind: "error", key: "login.invalidCredentials", field: "password" },
      });
    }
    if (outcome.status === 403)
      return refuse(403, { alert: alertFor(outcome.apiMessage) ?? { kind: "error", key: "login.disabled" } });
    const failure =
      outcome.kind === "refused" ? outcome.failure : { kind: "generic" as const, status: outcome.status, detail: null };
    return refuse(failure.status, { failure });
  }
  const next = await follow(
    outcome,
    { userType, redirectTo: safeRedirectPath(submission.value.redirectTo), username },
    request,
  );
  return next ?? refuse(502, { failure: { kind: "generic", status: 502, detail: null } });
}

export default function LoginPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as LoginActionData | undefined;
  // After a refused step post the action answers the step as it now stands (new positions, the
  // same ticket); otherwise the loader's step from the login-state cookie.
  const answered = (actionData && actionData.step !== undefined ? actionData.step : data.step) as LoginStep | null;
  // the default questions as the loader words them, in the page's language (decision 210)
  const worded = data.step as LoginStep | null;
  const step =
    answered?.status === "SetSecurityQuestions" && worded?.status === "SetSecurityQuestions"
      ? { ...answered, defaultQuestions: worded.defaultQuestions }
      : answered;
  // What the user typed as a secret (codes, characters, passwords, answers) is never left in the
  // page after an answer: each answer remounts the step's form, which Conform refills from the
  // reply minus the hidden secrets.
  const answerKey = useRemountKey(actionData);
  // .login-page: the site's login background (app.css, spec 000 §3)
  return (
    <div className="login-page">
      {step ? (
        <SignInStep
          key={`${step.status}-${answerKey}`}
          step={step}
          answer={actionData}
          passwordForm={data.passwordForm}
        />
      ) : (
        <LoginForm answer={actionData} />
      )}
    </div>
  );
}

function LoginForm({ answer }: { answer: LoginActionData | undefined }) {
  const { userType, redirectTo, notice, usernameHint } = useLoaderData<typeof loader>();
  const { t } = useTranslation("auth");
  const navigation = useNavigation();
  const [showPassword, setShowPassword] = useState(false);
  // A refused password is never left in the page: each answer of the action remounts the field empty.
  const passwordKey = useRemountKey(answer);
  const validation = useBrowserValidation(() => import("./login-schema").then((m) => m.LoginSchema));
  const [form, fields] = useForm({
    id: "login",
    lastResult: answer?.formId === "login" ? answer.result : undefined,
    constraint: LOGIN_CONSTRAINT,
    ...validation.form,
  });
  const pending = navigation.state !== "idle" && navigation.formAction?.startsWith("/login");
  const refusal = refusalOf(answer);
  const errors = [...summaryErrors([fields.username, fields.password]), ...refusalSummary(refusal, fields.password.id)];

  return (
    <div className="login">
      <ErrorSummary formId={form.id} errors={errors} />
      <h1>{t("login.title")}</h1>
      <LoginTabs userType={userType} redirectTo={redirectTo} />

      {notice ? (
        <div className={`alert alert--${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
          <p>{t(notice.key)}</p>
        </div>
      ) : null}
      <StepAlert answer={refusal ? { ...answer, alert: undefined } : answer} />

      <Form method="post" action="/login" {...getFormProps(form)} className="form login__form">
        <AuthenticityTokenInput />
        <HoneypotFields />
        <input type="hidden" name="userType" value={userType} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        {/* 'webauthn': the browser may offer the user's passkeys in this field's autofill (decision 101) */}
        <Field
          meta={fields.username}
          label={t("login.username")}
          hint={usernameHint ?? undefined}
          autoComplete="username webauthn"
        />
        <Field
          key={passwordKey}
          meta={fields.password}
          label={t("login.password")}
          type={showPassword ? "text" : "password"}
          autoComplete="current-password"
          secret
        />
        <ShowPasswordToggle
          id="show-password"
          label={t("login.showPassword")}
          checked={showPassword}
          onChange={setShowPassword}
        />
        <button type="submit" name="intent" value="login" className="button" disabled={pending}>
          {t("login.submit")}
        </button>
      </Form>
      <PasskeySignIn userType={userType} redirectTo={redirectTo} />
      {/* spec 000 §2: a Help with logging in link appears on the client tab only. */}
      {userType === "client" ? (
        <p className="login__help">
          <Link to="/login/help">{t("login.help")}</Link>
        </p>
      ) : null}
    </div>
  );
}

/**
 * GOV.UK's pattern (issue 40, decision 194): a refused sign-in is the form's error, so it is in the
 * error summary, which takes the focus after the post (with JavaScript the page is not reloaded, and
 * the focus would be left on the button the answer disabled and enabled again).
 */
function refusalOf(answer: LoginActionData | undefined) {
  return answer?.formId === "login" && answer.alert?.kind === "error" ? answer.alert : null;
}

function refusalSummary(refusal: ReturnType<typeof refusalOf>, passwordId: string): SummaryError[] {
  if (!refusal) return [];
  return [
    {
      fieldId: refusal.field === "password" ? passwordId : null,
      message: refusal.key ? `auth:${refusal.key}` : (refusal.text ?? ""),
      asWritten: !refusal.key,
      params: refusal.params,
    },
  ];
}

/** The client and adviser tabs: each is this page for that kind of login, keeping where to go after. */
function LoginTabs({ userType, redirectTo }: { userType: string; redirectTo: string | null | undefined }) {
  const { t } = useTranslation("auth");
  const tabQuery = (type: string) => {
    const params = new URLSearchParams({ userType: type });
    if (redirectTo) params.set("redirectTo", redirectTo);
    return `?${params.toString()}`;
  };
  return (
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
  );
}

// docs/decisions/046: a refused post carries Retry-After with and without JavaScript.
export const headers = rateLimitHeaders;

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data?.title ?? errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
