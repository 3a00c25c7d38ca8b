import { DisabledReason, SubmitWithReason } from "~/components/disabled-reason";
import { type FieldMetadata, getFormProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotFields } from "~/components/honeypot-fields";
import type { z } from "zod";
import { useBrowserValidation } from "~/components/browser-validation";
import { StepAlert, type StepAnswerData, stepTitleKey } from "./step-alert";
import { allFilledIn, ErrorSummary, Field, FieldError, summaryErrors, useDisabledUntilValid } from "~/components/forms";
import { NewPasswordField } from "~/components/new-password-field";
import { QuestionChoice } from "~/components/question-select";
import { methodName, type PasswordFormSettings } from "~/lib/security";
import { type LoginStep, memorableAnswerable, STEP_CONSTRAINTS } from "~/lib/sign-in-steps";
import type {
  ForcedPasswordSchema,
  MemorableSchema,
  SecurityCodeSchema,
  securityQuestionsSchema,
} from "~/lib/sign-in-steps-schemas";

// spec 000 §2 "Login content swaps by login status": one view per status. Every view is a plain
// form posting to /login with a named intent, so each works without JavaScript; the login ticket
// never reaches the page (it stays in the sealed login-state cookie). The browser loads these forms
// only when a step is shown (route.tsx, docs/decisions/104).

type StepProps<S extends LoginStep["status"]> = {
  step: Extract<LoginStep, { status: S }>;
  answer: StepAnswerData | undefined;
};

type SignInStepProps = {
  step: LoginStep;
  answer: StepAnswerData | undefined;
  /** The site's settings for a new password (the forced change is the Change Password form). */
  passwordForm: PasswordFormSettings;
};

/** The Conform result meant for this form (an answer of another step's form is ignored). */
function resultFor(answer: StepAnswerData | undefined, formId: string) {
  return answer?.formId === formId ? answer.result : undefined;
}

function FormSecrets() {
  return (
    <>
      <AuthenticityTokenInput />
      <HoneypotFields />
    </>
  );
}

function usePending() {
  const navigation = useNavigation();
  return navigation.state !== "idle" && Boolean(navigation.formAction?.startsWith("/login"));
}

/** 'Return to login' (or 'Cancel'): a submit button of the step's form, never validated. */
function ReturnButton({ label }: { label?: string }) {
  const { t } = useTranslation("auth");
  return (
    <button type="submit" name="intent" value="cancel" className="button button--secondary" formNoValidate>
      {label ?? t("steps.returnToLogin")}
    </button>
  );
}

// ---------------------------------------------------------------------------------------------

export function SignInStep({ step, answer, passwordForm }: SignInStepProps) {
  switch (step.status) {
    case "ForceChangePassword":
      return <ChangePasswordStep step={step} answer={answer} settings={passwordForm} />;
    case "SiteTerms":
      return <SiteTermsStep step={step} answer={answer} />;
    case "SetSecurityQuestions":
      return <SecurityQuestionsStep step={step} answer={answer} />;
    case "MfaRequired":
      return <SecurityCodeStep step={step} answer={answer} />;
    case "MfaEnrolmentValidateDevice":
      return <SecurityCodeStep step={step} answer={answer} />;
    case "MfaEnrolmentLinkDevice":
      return <LinkDeviceStep step={step} answer={answer} />;
    case "MfaEnrolmentLinkDeviceInvalidOtp":
      return <InvalidOtpStep step={step} answer={answer} />;
    case "MemorableCharactersRequired":
      return <MemorableStep step={step} answer={answer} />;
  }
}

/** The h1 of each step (the page title too). */
function StepHeading({ step }: { step: LoginStep }) {
  const { t } = useTranslation("auth");
  const title = step.status === "SiteTerms" && step.terms.title ? step.terms.title : t(stepTitleKey(step));
  return <h1>{title}</h1>;
}

// ---------------------------------------------------------------------------------------------
// ForceChangePassword: the Change Password form of spec 000 §5 and 002 §2 (at sign-in only the new
// password: the ticket proves the current one), with the same show-password box, strength meter
// and guidance as the other new-password forms.

function ChangePasswordStep({
  step,
  answer,
  settings,
}: StepProps<"ForceChangePassword"> & { settings: PasswordFormSettings }) {
  const { t } = useTranslation("auth");
  const pending = usePending();
  const validation = useBrowserValidation(
    () => import("~/lib/sign-in-steps-schemas").then((m) => m.ForcedPasswordSchema),
    {
      intent: "change-password",
    },
  );
  const [form, fields] = useForm<z.input<typeof ForcedPasswordSchema>>({
    id: "step-password",
    lastResult: resultFor(answer, "step-password"),
    constraint: STEP_CONSTRAINTS.forcedPassword,
    ...validation.form,
  });
  // spec 000 §5: the change-password button stays disabled until the form is valid.
  const incomplete = useDisabledUntilValid(form.id, validation.isValid);
  const reason = incomplete ? t("steps.password.disabledReason") : null;
  return (
    <div className="login sign-in-step">
      <ErrorSummary formId={form.id} errors={summaryErrors([fields.newPassword])} />
      <StepHeading step={step} />
      {/* decision 180: why a password that signed in must be changed */}
      {step.reason === "common" ? <p>{t("steps.password.introCommon")}</p> : null}
      <p>{t("steps.password.intro")}</p>
      <StepAlert answer={answer} />
      <Form method="post" action="/login" {...getFormProps(form)} className="form">
        <FormSecrets />
        <NewPasswordField
          meta={fields.newPassword}
          label={t("steps.password.newPassword")}
          showLabel={t("security:changePassword.showNew")}
          guidance={settings.guidance}
          strengthMeter={settings.strengthMeter}
          strengthId={`${fields.newPassword.id}-strength`}
        />
        <div className="form__actions">
          <SubmitWithReason
            reasonId="step-password-reason"
            reason={reason}
            pending={pending}
            name="intent"
            value="change-password"
          >
            {t("steps.password.submit")}
          </SubmitWithReason>
          <ReturnButton label={t("steps.cancel")} />
        </div>
        <DisabledReason id="step-password-reason" reason={reason} />
      </Form>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// SiteTerms: the terms (sanitised on the server), Agree and Decline.

function SiteTermsStep({ step, answer }: StepProps<"SiteTerms">) {
  const { t } = useTranslation("auth");
  const pending = usePending();
  return (
    <div className="login sign-in-step">
      <StepHeading step={step} />
      <p>{t("steps.terms.intro")}</p>
      <StepAlert answer={answer} />
      <div
        className="prose terms"
        role="region"
        aria-label={t("steps.terms.regionLabel")}
        // A scrolling region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        dangerouslySetInnerHTML={{ __html: step.terms.html ?? "" }}
      />
      <Form method="post" action="/login" className="form" id="step-terms">
        <FormSecrets />
        <div className="form__actions">
          <button type="submit" name="intent" value="agree-terms" className="button" disabled={pending}>
            {t("steps.terms.agree")}
          </button>
          <button type="submit" name="intent" value="decline-terms" className="button button--secondary">
            {t("steps.terms.decline")}
          </button>
        </div>
      </Form>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// SetSecurityQuestions: two questions (the platform's defaults or 'Other'), two answers (spec 002 §5).

function SecurityQuestionsStep({ step, answer }: StepProps<"SetSecurityQuestions">) {
  const { t } = useTranslation("auth");
  const pending = usePending();
  const validation = useBrowserValidation(
    () => import("~/lib/sign-in-steps-schemas").then((m) => m.securityQuestionsSchema(step.answerMinLength)),
    { intent: "security-questions" },
    [step.answerMinLength],
  );
  const [form, fields] = useForm<z.input<ReturnType<typeof securityQuestionsSchema>>>({
    id: "step-questions",
    lastResult: resultFor(answer, "step-questions"),
    constraint: STEP_CONSTRAINTS.securityQuestions,
    ...validation.form,
  });
  // spec 002 §5: Continue is disabled until the form is valid.
  const incomplete = useDisabledUntilValid(form.id, validation.isValid);
  const reason = incomplete ? t("steps.questions.disabledReason") : null;
  const pairs = [
    { question: fields.question1, custom: fields.question1Custom, answer: fields.answer1, n: 1 },
    { question: fields.question2, custom: fields.question2Custom, answer: fields.answer2, n: 2 },
  ];
  return (
    <div className="login sign-in-step">
      <ErrorSummary formId={form.id} errors={summaryErrors(pairs.flatMap((p) => [p.question, p.custom, p.answer]))} />
      <StepHeading step={step} />
      <p>{t("steps.questions.intro")}</p>
      <StepAlert answer={answer} />
      <Form method="post" action="/login" {...getFormProps(form)} className="form">
        <FormSecrets />
        {pairs.map((p) => (
          <fieldset key={p.n} className="fieldset">
            <legend className="fieldset__legend">{t("steps.questions.legend", { n: p.n })}</legend>
            <QuestionChoice
              meta={p.question}
              customMeta={p.custom}
              initial={(p.question.initialValue as string | undefined) ?? ""}
              resetOn={answer}
              label={t("steps.questions.question", { n: p.n })}
              questions={step.defaultQuestions}
              chooseLabel={t("steps.questions.choose")}
              otherLabel={t("steps.questions.other")}
              customLabel={t("steps.questions.custom", { n: p.n })}
              customHint={t("steps.questions.customHint")}
            />
            <Field
              meta={p.answer}
              label={t("steps.questions.answer", { n: p.n })}
              hint={
                step.answerMinLength > 0 ? t("steps.questions.answerHint", { min: step.answerMinLength }) : undefined
              }
              autoComplete="off"
              secret
            />
          </fieldset>
        ))}
        <div className="form__actions">
          <SubmitWithReason
            reasonId="step-questions-reason"
            reason={reason}
            pending={pending}
            name="intent"
            value="security-questions"
          >
            {t("steps.questions.submit")}
          </SubmitWithReason>
          <ReturnButton label={t("steps.cancel")} />
        </div>
        <DisabledReason id="step-questions-reason" reason={reason} />
      </Form>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// MfaRequired and MfaEnrolmentValidateDevice: the security code form.

function SecurityCodeStep({ step, answer }: StepProps<"MfaRequired" | "MfaEnrolmentValidateDevice">) {
  const { t } = useTranslation("auth");
  const pending = usePending();
  const validation = useBrowserValidation(
    () => import("~/lib/sign-in-steps-schemas").then((m) => m.SecurityCodeSchema),
    {
      intent: "validate-code",
    },
  );
  const [form, fields] = useForm<z.input<typeof SecurityCodeSchema>>({
    id: "step-code",
    lastResult: resultFor(answer, "step-code"),
    constraint: STEP_CONSTRAINTS.securityCode,
    ...validation.form,
  });
  // spec 000 §5: the security code's submit is disabled while the code is empty.
  const empty = useDisabledUntilValid(form.id, allFilledIn([fields.code.name]));
  const reason = empty ? t("steps.code.disabledReason") : null;
  const token = step.method === "token";
  return (
    <div className="login sign-in-step">
      <ErrorSummary formId={form.id} errors={summaryErrors([fields.code])} />
      <StepHeading step={step} />
      {step.status === "MfaRequired" && step.enrolled ? (
        <div className="alert alert--success" role="status">
          <p>{t("steps.code.verifyOnceMore")}</p>
        </div>
      ) : null}
      <StepAlert answer={answer} />
      <p>{codeSentTo(t, step.destination, token)}</p>
      {step.status === "MfaEnrolmentValidateDevice" && token && step.tokenSecret ? (
        <TokenSetup secret={step.tokenSecret} otpauthUri={step.otpauthUri} />
      ) : null}
      <Form method="post" action="/login" {...getFormProps(form)} className="form">
        <FormSecrets />
        <Field
          meta={fields.code}
          label={t("steps.code.label")}
          hint={t("steps.code.hint")}
          autoComplete="one-time-code"
          inputMode="numeric"
          inputClassName="field__input--code"
          secret
        />
        <div className="form__actions">
          <SubmitWithReason
            reasonId="step-code-reason"
            reason={reason}
            pending={pending}
            name="intent"
            value="validate-code"
          >
            {t("steps.code.submit")}
          </SubmitWithReason>
          {!token ? (
            <button type="submit" name="intent" value="resend-code" className="button button--secondary" formNoValidate>
              {t("steps.code.requestNew")}
            </button>
          ) : null}
          <ReturnButton />
        </div>
        <DisabledReason id="step-code-reason" reason={reason} />
      </Form>
    </div>
  );
}

/** Where the code comes from: where it was sent, or the authenticator app. */
function codeSentTo(
  t: (key: string, options?: Record<string, unknown>) => string,
  destination: string | null,
  token: boolean,
) {
  if (destination) return t("steps.code.sentTo", { destination });
  return token ? t("steps.code.fromApp") : t("steps.code.sent");
}

/** The authenticator app's key (and its otpauth link) to add Client Online to the app. */
function TokenSetup({ secret, otpauthUri }: { secret: string; otpauthUri: string | null | undefined }) {
  const { t } = useTranslation("auth");
  return (
    <div className="token-setup">
      <p>{t("steps.validateDevice.tokenIntro")}</p>
      <dl className="token-setup__details">
        <dt>{t("steps.validateDevice.secret")}</dt>
        <dd>
          <code>{secret}</code>
        </dd>
        {otpauthUri ? (
          <>
            <dt>{t("steps.validateDevice.uri")}</dt>
            <dd>
              <code className="token-setup__uri">{otpauthUri}</code>
            </dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// MfaEnrolmentLinkDevice: choose a verification method.

function LinkDeviceStep({ step, answer }: StepProps<"MfaEnrolmentLinkDevice">) {
  const { t } = useTranslation("auth");
  const pending = usePending();
  const validation = useBrowserValidation(() => import("~/lib/sign-in-steps-schemas").then((m) => m.LinkDeviceSchema), {
    intent: "link-device",
  });
  const [form, fields] = useForm<{ method: string }>({
    id: "step-device",
    lastResult: resultFor(answer, "step-device"),
    constraint: STEP_CONSTRAINTS.linkDevice,
    ...validation.form,
  });
  const meta = fields.method;
  const hasError = Boolean(meta.errors?.length);
  const noMethods = step.methods.length === 0;
  return (
    <div className="login sign-in-step">
      <ErrorSummary formId={form.id} errors={noMethods ? [] : summaryErrors([meta])} />
      <StepHeading step={step} />
      <StepAlert answer={answer} />
      <Form method="post" action="/login" {...getFormProps(form)} className="form">
        <FormSecrets />
        {noMethods ? (
          <div className="alert alert--error" role="alert">
            <p>{t("steps.linkDevice.noMethods")}</p>
          </div>
        ) : (
          <>
            <p>{t("steps.linkDevice.intro")}</p>
            <fieldset
              className={`fieldset${hasError ? " field--error" : ""}`}
              aria-describedby={hasError ? meta.errorId : undefined}
            >
              <legend className="fieldset__legend">{t("steps.linkDevice.legend")}</legend>
              {hasError ? <FieldError id={meta.errorId} errors={meta.errors ?? []} /> : null}
              {step.methods.map((m, i) => {
                const id = i === 0 ? meta.id : `${meta.id}-${m.method}`;
                return (
                  <div className="radio" key={m.method}>
                    <input
                      type="radio"
                      id={id}
                      name={meta.name}
                      value={m.method}
                      defaultChecked={meta.initialValue === m.method}
                    />
                    <label htmlFor={id}>
                      {methodName(t, "steps.method", m.method)}
                      {m.destination ? <span className="radio__hint"> ({m.destination})</span> : null}
                    </label>
                  </div>
                );
              })}
            </fieldset>
          </>
        )}
        <div className="form__actions">
          {noMethods ? null : (
            <button type="submit" name="intent" value="link-device" className="button" disabled={pending}>
              {t("steps.linkDevice.submit")}
            </button>
          )}
          <ReturnButton />
        </div>
      </Form>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// MfaEnrolmentLinkDeviceInvalidOtp: the 'Validate your device' failure page (spec 000 §4 step 4).

function InvalidOtpStep({ step, answer }: StepProps<"MfaEnrolmentLinkDeviceInvalidOtp">) {
  const { t } = useTranslation("auth");
  const pending = usePending();
  return (
    <div className="login sign-in-step">
      <StepHeading step={step} />
      <div className="alert alert--error" role="alert">
        <p>{t("steps.invalidOtp.text")}</p>
      </div>
      <StepAlert answer={answer} />
      <Form method="post" action="/login" className="form" id="step-invalid-otp">
        <FormSecrets />
        <div className="form__actions">
          <button type="submit" name="intent" value="resend-code" className="button" disabled={pending}>
            {t("steps.code.requestNew")}
          </button>
          <ReturnButton />
        </div>
      </Form>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// MemorableCharactersRequired: three masked one-character fields labelled with the position.

function MemorableStep({ step, answer }: StepProps<"MemorableCharactersRequired">) {
  const { t } = useTranslation("auth");
  const pending = usePending();
  const answerable = memorableAnswerable(step);
  const validation = useBrowserValidation(() => import("~/lib/sign-in-steps-schemas").then((m) => m.MemorableSchema), {
    intent: "memorable",
  });
  const [form, fields] = useForm<z.input<typeof MemorableSchema>>({
    // The positions are part of the id: new positions are a new, empty form.
    id: `step-memorable-${step.positions.join("-")}`,
    lastResult: resultFor(answer, "step-memorable"),
    constraint: {
      char1: { required: true, maxLength: 1 },
      char2: { required: true, maxLength: 1 },
      char3: { required: true, maxLength: 1 },
    },
    ...validation.form,
  });
  const chars = [fields.char1, fields.char2, fields.char3];
  // spec 000 §5: submit is enabled only when all three characters are non-blank.
  const incomplete = useDisabledUntilValid(form.id, allFilledIn(chars.map((c) => c.name)));
  const reason = incomplete ? t("steps.memorable.disabledReason") : null;
  // spec 000 §4: memorable word errors clear on typing (the answer's alert goes once the user types).
  const [typedSinceAnswer, setTypedSinceAnswer] = useState(false);
  return (
    <div className="login sign-in-step">
      <ErrorSummary formId={form.id} errors={answerable ? summaryErrors(chars) : []} />
      <StepHeading step={step} />
      <StepAlert answer={typedSinceAnswer ? undefined : answer} />
      <Form
        method="post"
        action="/login"
        {...getFormProps(form)}
        className="form"
        onInput={() => setTypedSinceAnswer(true)}
      >
        <FormSecrets />
        {answerable ? (
          <MemorableFields step={step} chars={chars} />
        ) : (
          <div className="alert alert--error" role="alert">
            <p>{t("steps.memorable.unavailable")}</p>
          </div>
        )}
        <div className="form__actions">
          {answerable ? (
            <SubmitWithReason
              reasonId="step-memorable-reason"
              reason={reason}
              pending={pending}
              name="intent"
              value="memorable"
            >
              {t("steps.memorable.submit")}
            </SubmitWithReason>
          ) : null}
          <ReturnButton />
        </div>
        <DisabledReason id="step-memorable-reason" reason={reason} />
      </Form>
    </div>
  );
}

/** The three characters asked for, each labelled with its position in the memorable word. */
function MemorableFields({
  step,
  chars,
}: {
  step: Extract<LoginStep, { status: "MemorableCharactersRequired" }>;
  chars: Array<FieldMetadata<string | undefined>>;
}) {
  const { t } = useTranslation("auth");
  return (
    <>
      <p>{t("steps.memorable.intro")}</p>
      {step.hint ? <p className="field__hint">{t("steps.memorable.hint", { hint: step.hint })}</p> : null}
      <fieldset className="fieldset memorable">
        <legend className="fieldset__legend">{t("steps.memorable.legend")}</legend>
        <div className="memorable__fields">
          {chars.map((meta, i) => (
            <Field
              key={`${meta.id}-${step.positions[i]}`}
              meta={meta}
              label={t("steps.memorable.character", { position: (step.positions[i] ?? 0) + 1 })}
              type="password"
              autoComplete="off"
              inputClassName="field__input--char"
              secret
            />
          ))}
        </div>
      </fieldset>
    </>
  );
}
