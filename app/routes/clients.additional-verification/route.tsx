import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { BiometricLoginLink } from "~/components/biometric-link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useBrowserValidation } from "~/components/browser-validation";
import {
  allFilledIn,
  ErrorSummary,
  FailureAlert,
  Field,
  FieldError,
  summaryErrors,
  useDisabledUntilValid,
  useRemountKey,
} from "~/components/forms";
import { DisabledReason, SubmitWithReason } from "~/components/disabled-reason";
import { getFixedT } from "~/session/i18next.server";
import { logger } from "~/runtime/logger.server";
import { additionalVerificationView, methodChanged, methodLabel, type MfaMethodOption } from "~/lib/security";
import { fetchAdditionalVerification, fetchOneWayMessaging } from "~/planning/security.server";
import { clearVerificationState, readVerificationState } from "./verification-state.server";
import { type ActionData, verificationAction } from "./verification.server";
import { attempt } from "~/session/failures.server";
import { settle } from "~/session/failures.server";
import { readForm } from "~/session/csrf.server";
import { refuseAccess, requireClient } from "~/session/guards.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 000 §2 "Additional verification page" and §4 "Additional verification flow": choose a
// method (two or more), the single-method view, validate the device with a code, the outcome.
// Clients whose login method is MFA only (spec 000 §2 rules). docs/decisions/052.

export const handle = { i18n: ["security"] };

const PAGE = "/clients/additional-verification";

async function requireMfaClient(request: Request) {
  const signedIn = await requireClient(request);
  if (signedIn.user.loginMethod !== "MFA") throw refuseAccess(signedIn, "additional verification is off");
  return signedIn;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { planning } = await requireMfaClient(request);
  const [t, state] = await Promise.all([getFixedT(request, "security"), readVerificationState(request)]);
  const title = t("verification.title");
  const nothing = {
    device: null,
    current: null,
    methods: [] as MfaMethodOption[],
    loadFailed: false,
    contactAdviser: false,
  };
  if (state?.step === "changed") {
    // The outcome is shown once, like a flash message.
    return json(
      { ...nothing, title, view: "changed" as const },
      { headers: { "Set-Cookie": await clearVerificationState() } },
    );
  }
  if (state) {
    const { deviceId: _deviceId, ...device } = state.device;
    return json({ ...nothing, title, view: state.step, device });
  }
  const [loaded, oneWay] = await Promise.all([
    attempt(request, fetchAdditionalVerification(planning)),
    settle(request, fetchOneWayMessaging(planning)),
  ]);
  if (!loaded.ok) {
    logger.error("additional verification details unavailable", { status: loaded.error.status });
    return json({ ...nothing, title, view: "none" as const, loadFailed: true });
  }
  const { details, methods } = loaded.value;
  return json({
    ...nothing,
    title,
    view: additionalVerificationView(methods),
    current: details.mfaMethod,
    methods,
    // spec 000 §4 step 2; toggles that cannot be read count as all off (spec 000 §1, decision 025).
    contactAdviser: oneWay.ok && !oneWay.value,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { planning } = await requireMfaClient(request);
  return verificationAction({ request, planning, formData: await readForm(request) });
}

type MethodFields = ReturnType<typeof useMethodForm>["fields"];

function ChooseMethod({
  methods,
  current,
  actionData,
  top,
}: {
  methods: MfaMethodOption[];
  current: string | null;
  actionData?: ActionData;
  /** The page's h1 and alerts, under the form's error summary. */
  top: React.ReactNode;
}) {
  const { t } = useTranslation("security");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const { form, fields } = useMethodForm(current, actionData);
  const submitted = (fields.method.initialValue as string | undefined) ?? current ?? "";
  const [choice, setChoice] = useState(submitted);
  const [password, setPassword] = useState("");
  useEffect(() => {
    setChoice(submitted);
    setPassword("");
  }, [actionData, submitted]);
  const secretsKey = useRemountKey(actionData);
  const changed = methodChanged(choice, current);
  // spec 000 §4-§5: Save and Cancel are disabled while the choice equals the current method, and
  // Save while the password is empty (only once JavaScript runs; the server says the same).
  const reasonKey = hydrated ? saveReasonKey(changed, password) : null;
  const saveReason = reasonKey ? t(reasonKey) : null;
  return (
    <>
      <ErrorSummary formId={form.id} errors={summaryErrors([fields.method, fields.password])} />
      {top}
      <p className="page__intro">{t("verification.chooseIntro")}</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <AuthenticityTokenInput />
        <MethodChoices methods={methods} current={current} fields={fields} choice={choice} onChoose={setChoice} />
        {!hydrated || changed || fields.password.errors?.length ? (
          <div
            onChange={(event) => {
              const target = event.target as HTMLInputElement;
              if (target.name === "password") setPassword(target.value);
            }}
          >
            <Field
              key={`password-${secretsKey}`}
              meta={fields.password}
              label={t("verification.password")}
              hint={t("verification.passwordHint")}
              type="password"
              autoComplete="current-password"
              secret
            />
          </div>
        ) : null}
        <div className="button-group">
          <SubmitWithReason
            reasonId="verification-save-reason"
            reason={saveReason}
            pending={navigation.state === "submitting"}
            name="intent"
            value="change"
          >
            {t("verification.save")}
          </SubmitWithReason>
          <CancelChange
            changed={changed}
            onCancel={() => {
              setChoice(current ?? "");
              setPassword("");
            }}
          />
        </div>
        <DisabledReason id="verification-save-reason" reason={saveReason} />
      </Form>
    </>
  );
}

/** The method form and its checks in the browser (a new method must differ from the current one). */
function useMethodForm(current: string | null, actionData: ActionData | undefined) {
  const validation = useBrowserValidation(
    () => import("~/lib/security-schemas").then((m) => m.createMethodChangeSchema(current)),
    {},
    [current],
  );
  const [form, fields] = useForm({
    id: "verification-method",
    lastResult: actionData?.result,
    defaultValue: { method: current ?? "" },
    ...validation.form,
  });
  return { form, fields };
}

/** Why Save is disabled: the choice is the current method, or the password is empty. */
function saveReasonKey(changed: boolean, password: string): string | null {
  if (!changed) return "verification.disabledReason.unchanged";
  return password ? null : "verification.disabledReason.password";
}

/** The available methods as radios, the current one marked. */
function MethodChoices({
  methods,
  current,
  fields,
  choice,
  onChoose,
}: {
  methods: MfaMethodOption[];
  current: string | null;
  fields: MethodFields;
  choice: string;
  onChoose: (method: string) => void;
}) {
  const { t } = useTranslation("security");
  const methodErrors = fields.method.errors ?? [];
  return (
    <fieldset
      className={methodErrors.length ? "field field--error" : undefined}
      aria-describedby={methodErrors.length ? fields.method.errorId : undefined}
    >
      <legend>{t("verification.legend")}</legend>
      {methodErrors.length ? <FieldError id={fields.method.errorId} errors={methodErrors} /> : null}
      {methods.map((option, i) => {
        const id = i === 0 ? fields.method.id : `${fields.method.id}-${option.method}`;
        return (
          <div className="radio" key={option.method}>
            <input
              id={id}
              type="radio"
              name={fields.method.name}
              value={option.method}
              checked={choice === option.method}
              onChange={() => onChoose(option.method)}
            />
            <label htmlFor={id}>
              {methodLabel(t, "verification.method", option)}
              {option.method === current ? ` — ${t("verification.current")}` : ""}
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}

/** Cancel: with JavaScript it puts the current method back; without, it reloads the page. */
function CancelChange({ changed, onCancel }: { changed: boolean; onCancel: () => void }) {
  const { t } = useTranslation("security");
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <Link to={PAGE} className="button button--secondary" reloadDocument>
        {t("verification.cancel")}
      </Link>
    );
  }
  return (
    <button type="button" className="button button--secondary" disabled={!changed} onClick={onCancel}>
      {t("verification.cancel")}
    </button>
  );
}

function ValidateDevice({
  device,
  actionData,
  top,
}: {
  device: { method: string; destination: string | null; tokenSecret: string | null };
  actionData?: ActionData;
  /** The page's h1 and alerts, under the form's error summary. */
  top: React.ReactNode;
}) {
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  const codeValidation = useBrowserValidation(() => import("~/lib/security-schemas").then((m) => m.MfaCodeSchema));
  const [form, fields] = useForm({
    id: "verification-code",
    lastResult: actionData?.result,
    ...codeValidation.form,
  });
  const secretsKey = useRemountKey(actionData);
  // spec 000 §5: the security code's submit is disabled while the code is empty.
  const empty = useDisabledUntilValid(form.id, allFilledIn([fields.code.name]));
  const reason = empty ? t("verification.disabledReason.code") : null;
  return (
    <>
      <ErrorSummary formId={form.id} errors={summaryErrors([fields.code])} />
      {top}
      <section aria-labelledby="validate-heading">
        <h2 id="validate-heading">{t("verification.validate.title")}</h2>
        {device.method === "token" && device.tokenSecret ? (
          <>
            <p>{t("verification.validate.token")}</p>
            <p>
              {t("verification.validate.tokenKey")}: <code>{device.tokenSecret}</code>
            </p>
          </>
        ) : (
          <p>
            {device.destination
              ? t("verification.validate.sentTo", { destination: device.destination })
              : t("verification.validate.sent")}
          </p>
        )}
        <Form method="post" {...getFormProps(form)} className="form">
          <AuthenticityTokenInput />
          <Field
            key={`code-${secretsKey}`}
            meta={fields.code}
            label={t("verification.validate.code")}
            autoComplete="one-time-code"
            inputMode="numeric"
            inputClassName="field__input--short"
            secret
          />
          <div className="button-group">
            <SubmitWithReason
              reasonId="verification-code-reason"
              reason={reason}
              pending={navigation.state === "submitting"}
              name="intent"
              value="validate"
            >
              {t("verification.validate.submit")}
            </SubmitWithReason>
            <button type="submit" name="intent" value="cancel" className="button button--secondary" formNoValidate>
              {t("verification.validate.cancel")}
            </button>
          </div>
          <DisabledReason id="verification-code-reason" reason={reason} />
        </Form>
      </section>
    </>
  );
}

function ReturnButtons({ contactAdviser }: { contactAdviser: boolean }) {
  const { t } = useTranslation("security");
  return (
    <div className="button-group">
      <Link to="/clients" className="button">
        {t("verification.return")}
      </Link>
      {contactAdviser ? (
        <Link to="/clients/adviser-details" className="button button--secondary">
          {t("verification.contactAdviser")}
        </Link>
      ) : null}
    </div>
  );
}

/** The page's h1 and its alerts. */
function PageTop({ actionData, loadFailed }: { actionData: ActionData | undefined; loadFailed: boolean }) {
  const { t } = useTranslation("security");
  return (
    <>
      <h1>{t("verification.title")}</h1>
      {actionData?.messageKey ? (
        <div className="alert alert--error" role="alert">
          <p>{t(actionData.messageKey)}</p>
        </div>
      ) : null}
      <FailureAlert failure={actionData?.failure} />
      {loadFailed ? (
        <div className="alert alert--error" role="alert">
          <p>{t("verification.errors.load")}</p>
        </div>
      ) : null}
    </>
  );
}

export default function AdditionalVerification() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("security");
  const single = data.methods[0];
  // The views with a form put its error summary above the h1 (GOV.UK's pattern): they show this.
  const top = <PageTop actionData={actionData} loadFailed={data.loadFailed} />;
  const device = data.view === "validate" ? data.device : null;
  return (
    <div className="page page--additional-verification">
      {data.view === "choose" ? (
        <ChooseMethod methods={data.methods} current={data.current} actionData={actionData} top={top} />
      ) : device ? (
        <ValidateDevice device={device} actionData={actionData} top={top} />
      ) : (
        top
      )}

      {data.view === "single" && single ? (
        <>
          <p className="page__intro">
            {t("verification.singleIntro", { method: methodLabel(t, "verification.method", single) })}
          </p>
          <ReturnButtons contactAdviser={data.contactAdviser} />
        </>
      ) : null}

      {data.view === "none" && !data.loadFailed ? (
        <>
          <div className="alert alert--warning">
            <p>{t("verification.errors.noMethods")}</p>
          </div>
          <ReturnButtons contactAdviser={data.contactAdviser} />
        </>
      ) : null}
      {data.view === "none" && data.loadFailed ? <ReturnButtons contactAdviser={false} /> : null}

      {data.view === "invalid" ? (
        <section aria-labelledby="invalid-heading">
          <div className="alert alert--error" role="alert">
            <h2 id="invalid-heading" className="alert__title">
              {t("verification.outcome.invalid")}
            </h2>
            <p>{t("verification.outcome.invalidText")}</p>
          </div>
          <Form method="post" className="button-group">
            <AuthenticityTokenInput />
            <button type="submit" name="intent" value="resend" className="button">
              {t("verification.requestNewCode")}
            </button>
            <button type="submit" name="intent" value="cancel" className="button button--secondary">
              {t("verification.validate.cancel")}
            </button>
          </Form>
        </section>
      ) : null}

      {data.view === "changed" ? (
        <>
          <div className="alert alert--success" role="status">
            <p>{t("verification.outcome.success")}</p>
          </div>
          <ReturnButtons contactAdviser={false} />
        </>
      ) : null}
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
