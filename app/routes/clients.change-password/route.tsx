import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { BiometricLoginLink } from "~/components/biometric-link";
import { useBrowserValidation } from "~/components/browser-validation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import {
  ErrorSummary,
  FailureAlert,
  Field,
  summaryErrors,
  ShowPasswordToggle,
  useDisabledUntilValid,
  useRemountKey,
} from "~/components/forms";
import { DisabledReason, SubmitWithReason } from "~/components/disabled-reason";
import { NewPasswordField } from "~/components/new-password-field";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import type { Failure } from "~/lib/error-catalogue";
import { changePasswordRefusal, passwordFormSettings } from "~/lib/security";
import { changePassword } from "~/planning/security.server";
import { attempt } from "~/session/failures.server";
import { getSite } from "~/planning/site.server";
import { readForm } from "~/session/csrf.server";
import { requireClient } from "~/session/guards.server";
import { redirectWithToast } from "~/session/toast.server";
import { ChangePasswordSchema, parseWithZod } from "~/session/validation.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 "Change password" (clients only), §5 messages, §8 'Password changed'. The platform ends
// the user's other sessions; this one carries on (docs/platform-api.md). docs/decisions/051.

export const handle = { i18n: ["security"] };

const SECRETS = ["currentPassword", "newPassword"];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireClient(request);
  const locale = await resolveLocale(request);
  const [t, site] = await Promise.all([getFixedT(request, "security"), getSite(locale)]);
  return json({ title: t("changePassword.title"), ...passwordFormSettings(site.settings, locale) });
}

type ActionData = { result: SubmissionResult<string[]>; failure?: Failure; messageKey?: string };

export async function action({ request }: ActionFunctionArgs) {
  const { planning } = await requireClient(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  const reply = (options: Parameters<typeof submission.reply>[0] = {}) =>
    submission.reply({ hideFields: SECRETS, ...options });
  if (submission.status !== "success") return json<ActionData>({ result: reply() }, { status: 400 });
  const changed = await attempt(request, changePassword(planning, submission.value));
  if (!changed.ok) {
    const { error } = changed;
    if (error.status === 403 && error.apiMessage === "Account has been disabled.") {
      return json<ActionData>({ result: reply(), messageKey: "disabled" }, { status: 403 });
    }
    const refusal = error.status === 400 ? changePasswordRefusal(error.apiMessage) : null;
    if (refusal)
      return json<ActionData>(
        { result: reply({ fieldErrors: { [refusal.field]: [refusal.message] } }) },
        { status: 400 },
      );
    return json<ActionData>({ result: reply(), failure: error.failure }, { status: error.failure.status });
  }
  // spec 002 §4: on success a toast 'Password changed'.
  return redirectWithToast("/clients/change-password", { type: "success", title: "security:changePassword.changed" });
}

export default function ChangePassword() {
  const { strengthMeter, guidance } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  const [showCurrent, setShowCurrent] = useState(false);
  const secretsKey = useRemountKey(actionData);
  const validation = useBrowserValidation(() => import("~/lib/security-schemas").then((m) => m.ChangePasswordSchema));
  const [form, fields] = useForm({
    id: "change-password",
    lastResult: actionData?.result,
    ...validation.form,
  });
  // spec 000 §5 and 002 §4: the button stays disabled until the form is valid.
  const incomplete = useDisabledUntilValid(form.id, validation.isValid);
  const reason = incomplete ? t("changePassword.disabledReason") : null;

  return (
    <div className="page page--change-password">
      <ErrorSummary formId={form.id} errors={summaryErrors([fields.currentPassword, fields.newPassword])} />
      <h1>{t("changePassword.title")}</h1>
      {actionData?.messageKey ? (
        <div className="alert alert--error" role="alert">
          <p>{t(actionData.messageKey)}</p>
        </div>
      ) : null}
      <FailureAlert failure={actionData?.failure} />
      <Form method="post" {...getFormProps(form)} className="form">
        <AuthenticityTokenInput />
        <Field
          key={`current-${secretsKey}`}
          meta={fields.currentPassword}
          label={t("changePassword.current")}
          type={showCurrent ? "text" : "password"}
          autoComplete="current-password"
          secret
        />
        <ShowPasswordToggle
          id="show-current-password"
          label={t("changePassword.showCurrent")}
          checked={showCurrent}
          onChange={setShowCurrent}
        />
        <NewPasswordField
          meta={fields.newPassword}
          label={t("changePassword.new")}
          showLabel={t("changePassword.showNew")}
          guidance={guidance}
          strengthMeter={strengthMeter}
          remountKey={secretsKey}
        />
        <SubmitWithReason reasonId="change-password-reason" reason={reason} pending={navigation.state === "submitting"}>
          {t("changePassword.submit")}
        </SubmitWithReason>
        <DisabledReason id="change-password-reason" reason={reason} />
      </Form>
      <BiometricLoginLink />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
