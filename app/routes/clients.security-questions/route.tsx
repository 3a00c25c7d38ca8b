import { DisabledReason, SubmitWithReason } from "~/components/disabled-reason";
import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { BiometricLoginLink } from "~/components/biometric-link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useBrowserValidation } from "~/components/browser-validation";
import {
  ErrorSummary,
  FailureAlert,
  Field,
  ShowPasswordToggle,
  type SummaryError,
  summaryErrors,
  useDisabledUntilValid,
  useRemountKey,
} from "~/components/forms";
import { QuestionChoice } from "~/components/question-select";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import type { Failure } from "~/lib/error-catalogue";
import {
  answerMinLengthForVersion,
  currentPasswordRefusal,
  questionFieldsOf,
  SECURITY_QUESTION_MESSAGES,
} from "~/lib/security";
import { orFail } from "~/session/failures.server";
import {
  fetchSecurityQuestions,
  saveSecurityQuestions,
  type SecurityQuestionsAnswer,
} from "~/planning/security.server";
import { attempt } from "~/session/failures.server";
import { getSite } from "~/planning/site.server";
import { readForm } from "~/session/csrf.server";
import { requireClient } from "~/session/guards.server";
import { redirectWithToast } from "~/session/toast.server";
import { createSecurityQuestionsSchema, parseWithZod } from "~/session/validation.server";
import { errorPageTitle } from "~/lib/error-title";
import { siteNames } from "~/lib/site-words";

// spec 002 "Security questions" (clients only), §5 rules, §8 'Your security questions have been
// set.'. Answers are secrets: never echoed back after an error (docs/decisions/053).

export const handle = { i18n: ["security"] };

const SECRETS = ["answer1", "answer2", "currentPassword"];

/** The answer minimum: the platform's answer_min_length, else the rule from its version. */
async function answerMinLength(answer: SecurityQuestionsAnswer, request: Request): Promise<number> {
  if (typeof answer.answer_min_length === "number") return answer.answer_min_length;
  return answerMinLengthForVersion((await getSite(await resolveLocale(request))).version);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { planning } = await requireClient(request);
  const locale = await resolveLocale(request);
  const [t, answer, site] = await Promise.all([
    getFixedT(request, "security"),
    orFail(request, fetchSecurityQuestions(planning)),
    getSite(locale),
  ]);
  // spec 002 §3: the default list has 8 questions, with blanks filtered out; in the page's
  // language where the site has it, else marked English (decision 210)
  const worded = siteNames(site.settings, "securityQuestions", locale);
  const defaults = answer.default_questions
    .map((q) => q.trim())
    .filter(Boolean)
    .map(worded);
  // a question chosen from the list in English shows as the same question in the page's language
  const current = [1, 2].map((position) => {
    const question = answer.questions.find((q) => q.position === position)?.question ?? null;
    return question === null ? null : worded(question).text;
  });
  return json({
    title: t("questions.title"),
    defaults,
    current: current.map((q) =>
      questionFieldsOf(
        q,
        defaults.map((d) => d.text),
      ),
    ),
    answerMinLength: await answerMinLength(answer, request),
  });
}

type ActionData = { result: SubmissionResult<string[]>; failure?: Failure; messageKey?: string };

export async function action({ request }: ActionFunctionArgs) {
  const { planning } = await requireClient(request);
  const formData = await readForm(request);
  const rules = await orFail(request, fetchSecurityQuestions(planning));
  const schema = createSecurityQuestionsSchema({ answerMinLength: await answerMinLength(rules, request) });
  const submission = parseWithZod(formData, { schema });
  const reply = (options: Parameters<typeof submission.reply>[0] = {}) =>
    submission.reply({ hideFields: SECRETS, ...options });
  if (submission.status !== "success") return json<ActionData>({ result: reply() }, { status: 400 });
  const { questions, currentPassword } = submission.value;
  const saved = await attempt(request, saveSecurityQuestions(planning, questions, currentPassword));
  if (!saved.ok) {
    // decision 179: a wrong current password beside its field, the lockout above the form
    const refusal = currentPasswordRefusal(saved.error.status, saved.error.apiMessage);
    if (refusal && "fieldError" in refusal)
      return json<ActionData>(
        { result: reply({ fieldErrors: { currentPassword: [refusal.fieldError] } }) },
        { status: 400 },
      );
    if (refusal) return json<ActionData>({ result: reply(), messageKey: refusal.messageKey }, { status: 403 });
    const key = saved.error.status === 400 ? SECURITY_QUESTION_MESSAGES[saved.error.apiMessage ?? ""] : undefined;
    if (key) return json<ActionData>({ result: reply({ formErrors: [key] }) }, { status: 400 });
    return json<ActionData>({ result: reply(), failure: saved.error.failure }, { status: saved.error.failure.status });
  }
  return redirectWithToast("/clients/security-questions", { type: "success", title: "security:questions.saved" });
}

type QuestionFields = ReturnType<typeof useQuestionsForm>["fields"];

export default function SecurityQuestions() {
  const { answerMinLength } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  const { form, fields, isValid } = useQuestionsForm(actionData);
  // spec 002 §5: Continue is disabled until the form is valid.
  const incomplete = useDisabledUntilValid(form.id, isValid);
  const reason = incomplete ? t("questions.disabledReason") : null;
  const secretsKey = useRemountKey(actionData);
  // decision 179: the current password, asked again, with change password's show-password box
  const [showPassword, setShowPassword] = useState(false);
  const formError = form.errors?.[0];
  const answerHint =
    answerMinLength > 0 ? t("questions.answerHintMin", { min: answerMinLength }) : t("questions.answerHint");

  return (
    <div className="page page--security-questions">
      <ErrorSummary formId={form.id} errors={questionsSummary(fields, formError)} />
      <h1>{t("questions.title")}</h1>
      <p className="page__intro">{t("questions.intro")}</p>
      {actionData?.messageKey ? (
        <div className="alert alert--error" role="alert">
          <p>{t(actionData.messageKey)}</p>
        </div>
      ) : null}
      <FailureAlert failure={actionData?.failure} />
      <Form method="post" {...getFormProps(form)} className="form">
        {formError ? (
          <div className="alert alert--error">
            <p>{t(formError)}</p>
          </div>
        ) : null}
        <AuthenticityTokenInput />
        <QuestionPairs fields={fields} actionData={actionData} answerHint={answerHint} secretsKey={secretsKey} />
        <Field
          key={`current-password-${secretsKey}`}
          meta={fields.currentPassword}
          label={t("changePassword.current")}
          hint={t("questions.currentPasswordHint")}
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
        <SubmitWithReason reasonId="questions-reason" reason={reason} pending={navigation.state === "submitting"}>
          {t("questions.submit")}
        </SubmitWithReason>
        <DisabledReason id="questions-reason" reason={reason} />
      </Form>
      <BiometricLoginLink />
    </div>
  );
}
/** The form, its fields preselecting the current questions, and its checks in the browser. */
function useQuestionsForm(actionData: ActionData | undefined) {
  const { current, answerMinLength } = useLoaderData<typeof loader>();
  const validation = useBrowserValidation(
    () => import("~/lib/security-schemas").then((m) => m.createSecurityQuestionsSchema({ answerMinLength })),
    {},
    [answerMinLength],
  );
  const [form, fields] = useForm({
    id: "security-questions",
    lastResult: actionData?.result,
    defaultValue: {
      question1: current[0]?.select ?? "",
      customQuestion1: current[0]?.custom ?? "",
      question2: current[1]?.select ?? "",
      customQuestion2: current[1]?.custom ?? "",
    },
    ...validation.form,
  });
  return { form, fields, isValid: validation.isValid };
}

/** The error summary: the form's error first (it points at the first question), then each field's. */
function questionsSummary(fields: QuestionFields, formError: string | undefined): SummaryError[] {
  return [
    ...(formError ? [{ fieldId: fields.question1.id, message: formError }] : []),
    ...summaryErrors([
      fields.question1,
      fields.customQuestion1,
      fields.answer1,
      fields.question2,
      fields.customQuestion2,
      fields.answer2,
      fields.currentPassword,
    ]),
  ];
}

/**
 * The two questions, each with its custom question (shown for 'Other' while JavaScript runs, always
 * without it: decision 053) and its answer.
 */
function QuestionPairs({
  fields,
  actionData,
  answerHint,
  secretsKey,
}: {
  fields: QuestionFields;
  actionData: ActionData | undefined;
  answerHint: string;
  secretsKey: number;
}) {
  const { defaults, current } = useLoaderData<typeof loader>();
  const { t } = useTranslation("security");
  // the question as last submitted (Conform's value, which a server's answer sets; the initial
  // value stays the page's), so that a refusal answered with JavaScript keeps the questions chosen
  const initial = (n: 1 | 2) =>
    (fields[`question${n}`].value as string | undefined) ??
    (fields[`question${n}`].initialValue as string | undefined) ??
    current[n - 1]?.select ??
    "";
  const pairs = ([1, 2] as const).map((n) => (
    <div key={n} className="security-question">
      <QuestionChoice
        meta={fields[`question${n}`]}
        customMeta={fields[`customQuestion${n}`]}
        initial={initial(n)}
        resetOn={actionData}
        label={t(`questions.question${n}`)}
        questions={defaults}
        chooseLabel={t("questions.choose")}
        otherLabel={t("questions.other")}
        customLabel={t(`questions.custom${n}`)}
        customHint={t("questions.customHint")}
      />
      <Field
        key={`answer${n}-${secretsKey}`}
        meta={fields[`answer${n}`]}
        label={t(`questions.answer${n}`)}
        hint={answerHint}
        autoComplete="off"
        secret
      />
    </div>
  ));
  return <>{pairs}</>;
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
