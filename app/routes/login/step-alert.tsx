import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/components/translation";
import { FailureAlert } from "~/components/forms";
import type { Failure } from "~/lib/error-catalogue";
import type { LoginStep } from "~/lib/sign-in-steps";

// What the login page shows of an answer whatever the form (the alert above a step or the password
// form) and each step's title: apart from the steps' forms (sign-in-steps.tsx), which the browser
// loads only when a step is shown.

export type StepAnswerData = {
  formId?: string;
  result?: SubmissionResult<string[]>;
  alert?: { kind: "error" | "info"; key?: string; params?: Record<string, string | number>; text?: string };
  failure?: Failure;
};

export function StepAlert({ answer }: { answer: StepAnswerData | undefined }) {
  const { t } = useTranslation("auth");
  const alert = answer?.alert;
  return (
    <>
      {alert ? (
        <div
          className={`alert alert--${alert.kind === "info" ? "info" : "error"}`}
          role={alert.kind === "info" ? "status" : "alert"}
        >
          <p>{alert.key ? t(alert.key, alert.params) : alert.text}</p>
        </div>
      ) : null}
      <FailureAlert failure={answer?.failure} />
    </>
  );
}

/** The `auth` key of a step's title (the page's title and heading). */
export function stepTitleKey(step: LoginStep): string {
  switch (step.status) {
    case "ForceChangePassword":
      return "steps.password.title";
    case "SiteTerms":
      return "steps.terms.title";
    case "SetSecurityQuestions":
      return "steps.questions.title";
    case "MfaRequired":
      return "steps.code.title";
    case "MfaEnrolmentValidateDevice":
      return "steps.validateDevice.title";
    case "MfaEnrolmentLinkDevice":
      return "steps.linkDevice.title";
    case "MfaEnrolmentLinkDeviceInvalidOtp":
      return "steps.invalidOtp.title";
    case "MemorableCharactersRequired":
      return "steps.memorable.title";
  }
}
