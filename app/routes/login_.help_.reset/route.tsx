import { DisabledReason, SubmitWithReason } from "~/components/disabled-reason";
import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import {
  Form,
  Link,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useNavigation,
} from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotFields } from "~/components/honeypot-fields";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useBrowserValidation } from "~/components/browser-validation";
import {
  ErrorSummary,
  FailureAlert,
  Field,
  FieldError,
  type SummaryError,
  summaryErrors,
  useDisabledUntilValid,
  useRemountKey,
} from "~/components/forms";
import { NewPasswordField } from "~/components/new-password-field";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { clientAddress } from "~/runtime/client-address.server";
import type { Failure } from "~/lib/error-catalogue";
import { logger } from "~/runtime/logger.server";
import { resetRefusalOf, resetStepOf } from "~/lib/recovery";
import { landingPath } from "~/lib/redirect-to";
import { passwordFormSettings } from "~/lib/security";
import { PlanningError } from "~/planning/client.server";
import { completePasswordReset } from "~/planning/recovery.server";
import { clearResetState, commitResetState, readResetState } from "~/session/reset-state.server";
import { getSite } from "~/planning/site.server";
import { readForm } from "~/session/csrf.server";
import { checkRateLimit, rateLimitHeaders } from "~/session/rate-limit.server";
import { getPortalSession } from "~/session/session.server";
import { parseWithZod, QuestionsResetSchema, ResetCodeSchema, RecoveryUserType } from "~/session/validation.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 000 §4 "Forgotten password flow": enterReset (a code was sent) or secQNewPass (two security
// answers), each with the new password; success goes to /login?passwordChanged=true. The reset's
// opaque reference travels in a sealed cookie, never the code, the answers or the password
// (docs/decisions/050).

export const handle = { i18n: ["recovery", "security"] };

const SECRETS = ["resetCode", "answer1", "answer2", "newPassword"];

async function expired(): Promise<Response> {
  return redirect("/login/help?expired=true", { headers: { "Set-Cookie": await clearResetState() } });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getPortalSession(request);
  if (session) throw redirect(landingPath(session.user, null));
  const state = await readResetState(request);
  if (!state) throw await expired();
  const locale = await resolveLocale(request);
  const [t, site] = await Promise.all([getFixedT(request, "recovery"), getSite(locale)]);
  return json({
    title: t("reset.title"),
    step: resetStepOf(state.method),
    questions: state.questions,
    codeErrors: state.codeErrors,
    userType: RecoveryUserType.parse(new URL(request.url).searchParams.get("userType") ?? "client"),
    ...passwordFormSettings(site.settings, locale),
  });
}

type ActionData = { result: SubmissionResult<string[]>; failure?: Failure; messageKey?: string; minutes?: number };

/**
 * A refusal is the last word: the page is not read again after it. One that ended the reset (its
 * pause, a disabled account) cleared the reset's state, and reading the page again would replace
 * the answer with "Your password reset has ended" before it could be read (with JavaScript;
 * without, the answer is the page); the others change nothing the page shows.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  !(actionStatus && actionStatus >= 400) && defaultShouldRevalidate;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, { anonymous: true });
  const address = clientAddress(request, context);
  const state = await readResetState(request);
  if (!state) return expired();
  const step = resetStepOf(state.method);
  const submission =
    step === "enterReset"
      ? parseWithZod(formData, { schema: ResetCodeSchema })
      : parseWithZod(formData, { schema: QuestionsResetSchema });
  const reply = (options: Parameters<typeof submission.reply>[0] = {}) =>
    submission.reply({ hideFields: SECRETS, ...options });

  const wait = await checkRateLimit(address, "recovery");
  if (wait) {
    return json<ActionData>(
      { result: reply(), messageKey: "errors.rateLimited", minutes: Math.ceil(wait / 60) },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  if (submission.status !== "success") return json<ActionData>({ result: reply() }, { status: 400 });

  const value = submission.value;
  try {
    await completePasswordReset({
      reference: state.reference,
      newPassword: value.newPassword,
      ...("resetCode" in value
        ? { resetCode: value.resetCode }
        : { answers: [value.answer1, value.answer2] as [string, string] }),
    });
  } catch (error) {
    if (!(error instanceof PlanningError)) throw error;
    const refusal = resetRefusalOf(error.status, error.apiMessage, error.userMessage);
    logger.info("password reset refused", { step, refusal: refusal.kind, address });
    switch (refusal.kind) {
      case "code": {
        // A questions reset answers this only when its reference has lapsed: start again.
        if (step === "secQNewPass") return expired();
        // spec 000 §4 and §8: the code error count rises with each invalid code.
        const cookie = await commitResetState({ ...state, codeErrors: state.codeErrors + 1 });
        return json<ActionData>(
          { result: reply({ fieldErrors: { resetCode: ["recovery:errors.resetCodeIncorrect"] } }) },
          { status: 400, headers: { "Set-Cookie": cookie } },
        );
      }
      case "answers":
        return json<ActionData>(
          { result: reply({ formErrors: ["recovery:errors.answersIncorrect"] }) },
          { status: 400 },
        );
      case "policy":
        return json<ActionData>(
          { result: reply({ fieldErrors: { newPassword: [refusal.message] } }) },
          { status: 400 },
        );
      case "disabled":
        return json<ActionData>(
          { result: reply(), messageKey: "errors.disabled" },
          { status: 403, headers: { "Set-Cookie": await clearResetState() } },
        );
      // docs/decisions/163: the username's wrong codes or answers reached the limit; the reset is over
      case "paused":
        return json<ActionData>(
          { result: reply(), messageKey: "errors.recoveryPaused" },
          { status: 429, headers: { "Set-Cookie": await clearResetState() } },
        );
      default:
        return json<ActionData>({ result: reply(), failure: error.failure }, { status: error.failure.status });
    }
  }
  const userType = RecoveryUserType.parse(formData.get("userType") ?? "client");
  return redirect(
    userType === "adviser" ? "/login?userType=adviser&passwordChanged=true" : "/login?passwordChanged=true",
    {
      headers: { "Set-Cookie": await clearResetState() },
    },
  );
}

type ResetFields = ReturnType<typeof useForm<Record<string, string>>>[1];

export default function ResetPassword() {
  const { step, questions, userType, guidance, strengthMeter } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("recovery");
  const navigation = useNavigation();
  // Secrets are never left in the page after an answer: each answer remounts the fields empty.
  const secretsKey = useRemountKey(actionData);
  const validation = useBrowserValidation(
    () =>
      import("~/lib/recovery-schemas").then((m) =>
        step === "enterReset" ? m.ResetCodeSchema : m.QuestionsResetSchema,
      ),
    {},
    [step],
  );
  const [form, fields] = useForm<Record<string, string>>({
    id: "reset-password",
    lastResult: actionData?.result,
    ...validation.form,
  });
  // spec 000 §5: the change-password button stays disabled until the form is valid.
  const incomplete = useDisabledUntilValid(form.id, validation.isValid);
  const reason = incomplete ? t("reset.disabledReason") : null;
  const formError = form.errors?.[0];

  return (
    <div className="login">
      <ErrorSummary formId={form.id} errors={resetSummary(step, fields, formError)} />
      <h1>{t("reset.title")}</h1>
      <p>{step === "enterReset" ? t("reset.codeIntro") : t("reset.questionsIntro")}</p>
      {actionData?.messageKey ? (
        <div className="alert alert--error" role="alert">
          <p>{t(actionData.messageKey, { minutes: actionData.minutes })}</p>
        </div>
      ) : null}
      <FailureAlert failure={actionData?.failure} />
      <Form method="post" {...getFormProps(form)} className="form">
        <AuthenticityTokenInput />
        <HoneypotFields />
        <input type="hidden" name="userType" value={userType} />
        {step === "enterReset" ? (
          <ResetCodeField fields={fields} secretsKey={secretsKey} />
        ) : (
          <ResetAnswers fields={fields} questions={questions} formError={formError} secretsKey={secretsKey} />
        )}
        <NewPasswordField
          meta={fields.newPassword!}
          label={t("reset.newPassword")}
          showLabel={t("reset.showPassword")}
          guidance={guidance}
          strengthMeter={strengthMeter}
          remountKey={secretsKey}
        />
        <SubmitWithReason reasonId="reset-reason" reason={reason} pending={navigation.state === "submitting"}>
          {t("reset.submit")}
        </SubmitWithReason>
        <DisabledReason id="reset-reason" reason={reason} />
      </Form>
      <ResetLinks userType={userType} />
    </div>
  );
}

/** The error summary: the answers' shared error first (it points at the first answer), then each field's. */
function resetSummary(step: string, fields: ResetFields, formError: string | undefined): SummaryError[] {
  const ordered =
    step === "enterReset"
      ? [fields.resetCode!, fields.newPassword!]
      : [fields.answer1!, fields.answer2!, fields.newPassword!];
  return [...(formError ? [{ fieldId: fields.answer1!.id, message: formError }] : []), ...summaryErrors(ordered)];
}

/** The reset code sent to the user. */
function ResetCodeField({ fields, secretsKey }: { fields: ResetFields; secretsKey: number }) {
  const { t } = useTranslation("recovery");
  return (
    <Field
      key={`code-${secretsKey}`}
      meta={fields.resetCode!}
      label={t("reset.code")}
      autoComplete="one-time-code"
      inputMode="numeric"
      inputClassName="field__input--short"
      secret
    />
  );
}

/** The answers to the user's two security questions, with their shared error. */
function ResetAnswers({
  fields,
  questions,
  formError,
  secretsKey,
}: {
  fields: ResetFields;
  questions: string[];
  formError: string | undefined;
  secretsKey: number;
}) {
  const { t } = useTranslation("recovery");
  return (
    <fieldset aria-describedby={formError ? "reset-answers-error" : undefined}>
      <legend>{t("reset.answersLegend")}</legend>
      <FieldError id="reset-answers-error" errors={[formError]} />
      <Field key={`a1-${secretsKey}`} meta={fields.answer1!} label={questions[0] ?? ""} autoComplete="off" secret />
      <Field key={`a2-${secretsKey}`} meta={fields.answer2!} label={questions[1] ?? ""} autoComplete="off" secret />
    </fieldset>
  );
}

/** 'Start again' (back to 'Help with logging in') and 'Return to login', for the user's kind of login. */
function ResetLinks({ userType }: { userType: string }) {
  const { t } = useTranslation("recovery");
  const adviser = userType === "adviser";
  return (
    <>
      <p className="standalone-link">
        <Link to={adviser ? "/login/help?userType=adviser" : "/login/help"}>{t("reset.startAgain")}</Link>
      </p>
      <p className="standalone-link">
        <Link to={adviser ? "/login?userType=adviser" : "/login"}>{t("returnToLogin")}</Link>
      </p>
    </>
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
