import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorSummary, FieldError } from "~/components/error-summary";
import { DisabledReason, SubmitWithReason } from "~/components/disabled-reason";
import { useModalDialog } from "~/components/modal-dialog";
import { readForm } from "~/session/csrf.server";
import { refuseAccess, requireClientContext } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { SIGNATURES_PATH } from "~/lib/messages/signature";
import {
  type JourneyAnswer,
  loadSignature,
  readId,
  signatureAction,
  signatureView,
  type SignatureView,
} from "./signature.server";
import signatureStyles from "./signature.css";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 "Signature view" and "Signing journey" (docs/decisions/095-digital-signatures.md): the
// document in a frame served by the portal, its signatories, and the journey as plain posts, one
// step at a time; JavaScript only enhances (the View dialog, the tick that requests the code, the
// Verify button enabled when it may be used).

export const handle = { i18n: ["messages"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: signatureStyles }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  // spec 002 §6: the signature folder is for ClientUser only (decision 197)
  if (context.isAdviser) throw refuseAccess(context, "signature folder: clients only");
  const id = readId(params);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "messages")]);
  const { item, signatories, terms } = await loadSignature(request, context.planning, id);
  const view = signatureView({
    item,
    signatories,
    terms,
    isClient: !context.isAdviser,
    entityId: context.entityId,
    url: new URL(request.url),
    t,
    locale,
    timeZone: context.user.userTimezone,
  });
  return json({ view, title: item.title });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const context = await requireClientContext(request);
  if (context.isAdviser) throw refuseAccess(context, "signature folder: clients only");
  const id = readId(params);
  const form = await readForm(request);
  const t = await getFixedT(request, "messages");
  return signatureAction({ request, planning: context.planning, id, form, isClient: !context.isAdviser, t });
}

function Signatories({ view }: { view: SignatureView }) {
  const { t } = useTranslation("messages");
  return (
    <section className="signature-signatories" aria-labelledby="signatories-heading">
      <h2 id="signatories-heading">{t("signature.signatories")}</h2>
      <ul>
        {view.signatories.map((s) => (
          <li key={s.id}>{s.text}</li>
        ))}
      </ul>
    </section>
  );
}

/** The document in a dialog, with JavaScript. */
function ViewDialog({ view, dialog }: { view: SignatureView; dialog: ReturnType<typeof useModalDialog> }) {
  const { t } = useTranslation("messages");
  return (
    <dialog
      ref={dialog.ref}
      className="signature-dialog"
      aria-labelledby="signature-dialog-heading"
      onClose={dialog.closed}
    >
      {/* issue 25 item 5: the focus starts on the heading, the close button is next, the frame last */}
      <div className="signature-dialog__header">
        <h2 id="signature-dialog-heading" tabIndex={-1} data-autofocus>
          {t("signature.viewTitle")}
        </h2>
        <button type="button" className="button button--secondary" onClick={dialog.close}>
          {t("signature.close")}
        </button>
      </div>
      <iframe
        className="signature-document__frame signature-document__frame--tall"
        src={view.documentHref}
        title={view.filename}
      />
    </dialog>
  );
}

/**
 * The document: its frame on the page shown when asked for (issue 26: the PDF viewer loading with
 * the page kept a phone busy for a second), with a button that shows and hides it with JavaScript
 * and a link to the PDF itself without; and 'View' as a dialog with JavaScript or a page of its
 * own, with the frame at once, without.
 */
function Document({ view }: { view: SignatureView }) {
  const { t } = useTranslation("messages");
  const hydrated = useHydrated();
  const dialog = useModalDialog();
  const [preview, setPreview] = useState(false);
  return (
    <section className="signature-document" aria-labelledby="signature-document-heading">
      <h2 id="signature-document-heading">{view.viewDocument ? t("signature.viewTitle") : t("signature.document")}</h2>
      {view.viewDocument ? (
        <iframe
          className="signature-document__frame signature-document__frame--tall"
          src={view.documentHref}
          title={view.filename}
        />
      ) : null}
      <div className="signature-document__actions">
        {view.viewDocument ? (
          <Link to={`${SIGNATURES_PATH}/${view.id}`}>{t("signature.closeView")}</Link>
        ) : (
          <>
            {hydrated ? (
              <button
                type="button"
                className="button button--secondary"
                aria-expanded={preview}
                aria-controls="signature-preview"
                onClick={() => setPreview(!preview)}
              >
                {t(preview ? "signature.hideOnPage" : "signature.showOnPage")}
              </button>
            ) : (
              <a href={view.documentHref} className="button button--secondary">
                {t("signature.showOnPage")}
              </a>
            )}
            {hydrated ? (
              <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={dialog.show}>
                {t("signature.view")}
              </button>
            ) : (
              <Link to={view.viewHref} className="button button--secondary">
                {t("signature.view")}
              </Link>
            )}
          </>
        )}
      </div>
      {view.viewDocument ? null : (
        <div id="signature-preview" className="signature-preview">
          {preview ? (
            <iframe className="signature-document__frame" src={view.documentHref} title={view.filename} />
          ) : null}
        </div>
      )}
      <div className="download-card card">
        <p className="download-card__name">{view.filename}</p>
        <a href={view.downloadHref} download={view.filename}>
          {t("signature.download")}
          <span className="visually-hidden"> {view.filename}</span>
        </a>
      </div>
      {dialog.open ? <ViewDialog view={view} dialog={dialog} /> : null}
    </section>
  );
}

function Alert({ message }: { message: string | null }) {
  const { t } = useTranslation("messages");
  if (!message) return null;
  // a key of the catalogue, or the platform's own text (spec 002 §8 'any other error shows the API error text')
  return (
    <p className="alert alert--error" role="alert">
      {message.startsWith("messages:") ? t(message) : message}
    </p>
  );
}

/** The error of the field `id` beside it (the error summary links to the field). */
function ErrorOf({ id, errors }: { id: string; errors: JourneyAnswer["errors"] }) {
  return <FieldError id={`${id}-error`} errors={[errors.find((e) => e.fieldId === id)?.message]} />;
}

function Terms({ view }: { view: SignatureView }) {
  return (
    // the platform's own text, marked with the language it is written in (issue 25 item 3)
    <div
      className="signature-terms"
      role="region"
      aria-labelledby="signature-terms-title"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region keyboard users must reach
      tabIndex={0}
      lang={view.terms.lang}
    >
      <h3 id="signature-terms-title">{view.terms.title}</h3>
      <div className="text-page" dangerouslySetInnerHTML={{ __html: view.terms.html }} />
    </div>
  );
}

type Errors = JourneyAnswer["errors"];

/** spec 002: declining asks once more before it is sent. */
/**
 * The confirmation before declining, over spec 002 step 7's 'Decline sends the decline request
 * directly': declining cannot be undone here (WCAG 3.3.4; docs/decisions/206).
 */
function DeclineForm({
  view,
  action,
  alert,
  busy,
}: {
  view: SignatureView;
  action: string;
  alert: string | null;
  busy: boolean;
}) {
  const { t } = useTranslation("messages");
  return (
    <Form method="post" action={action} className="signature-form">
      <AuthenticityTokenInput />
      <h3>{t("signature.declineHeading")}</h3>
      <Alert message={alert} />
      <p>{t("signature.declineText")}</p>
      <div className="form-actions">
        <button type="submit" name="intent" value="confirm-decline" className="button button--danger" disabled={busy}>
          {t("signature.decline")}
        </button>
        <Link to={`${SIGNATURES_PATH}/${view.id}`} className="button button--secondary">
          {t("signature.cancel")}
        </Link>
      </div>
    </Form>
  );
}

/** spec 002 step 1: the terms' tick box; with JavaScript, ticking it at the terms step requests the code. */
function AcceptField({
  step,
  action,
  errors,
  accepted,
  onAccepted,
}: {
  step: string;
  action: string;
  errors: Errors;
  accepted: boolean;
  onAccepted: (accepted: boolean) => void;
}) {
  const { t } = useTranslation("messages");
  const hydrated = useHydrated();
  const submit = useSubmit();
  const invalid = errors.some((e) => e.fieldId === "signature-accept");
  return (
    <div className={invalid ? "field field--error" : "field"}>
      <ErrorOf id="signature-accept" errors={errors} />
      <div className="checkbox">
        <input
          id="signature-accept"
          type="checkbox"
          name="accept"
          checked={hydrated ? accepted : undefined}
          defaultChecked={hydrated ? undefined : step !== "terms"}
          aria-describedby={invalid ? "signature-accept-error" : undefined}
          onChange={(event) => {
            onAccepted(event.target.checked);
            // spec 002 step 1: ticking the terms requests the code
            if (event.target.checked && step === "terms")
              submit(event.target.form, { method: "post", action, replace: true });
          }}
        />
        <label htmlFor="signature-accept">{t("signature.accept")}</label>
      </div>
    </div>
  );
}

/** Without JavaScript the tick and a button; with it the tick sends the code. */
function RequestCodeActions({ busy }: { busy: boolean }) {
  const { t } = useTranslation("messages");
  const hydrated = useHydrated();
  return (
    <div className="form-actions">
      {hydrated ? (
        <input type="hidden" name="intent" value="request-code" />
      ) : (
        <button type="submit" name="intent" value="request-code" className="button">
          {t("signature.sendCode")}
        </button>
      )}
      {busy ? <p role="status">{t("signature.sending")}</p> : null}
    </div>
  );
}

/** spec 002 step 3: the code sent, Verify (needs the terms accepted and a code) and Resend. */
function CodeEntry({
  errors,
  code,
  onCode,
  verifyReason,
  busy,
}: {
  errors: Errors;
  code: string;
  onCode: (code: string) => void;
  verifyReason: string | null;
  busy: boolean;
}) {
  const { t } = useTranslation("messages");
  const hydrated = useHydrated();
  const invalid = errors.some((e) => e.fieldId === "signature-code");
  return (
    <>
      <p>{t("signature.codeSent")}</p>
      <div className={invalid ? "field field--error" : "field"}>
        <label htmlFor="signature-code" className="field__label">
          {t("signature.code")}
        </label>
        <ErrorOf id="signature-code" errors={errors} />
        <input
          id="signature-code"
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className="field__input field__input--code"
          value={hydrated ? code : undefined}
          onChange={(event) => onCode(event.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? "signature-code-error" : undefined}
        />
      </div>
      <div className="form-actions">
        {/* spec 002 step 3: Verify needs the terms accepted and a code */}
        <SubmitWithReason
          reasonId="signature-verify-reason"
          reason={verifyReason}
          pending={busy}
          name="intent"
          value="verify"
        >
          {busy ? t("signature.validating") : t("signature.verify")}
        </SubmitWithReason>
        <button type="submit" name="intent" value="resend" className="button button--link" formNoValidate>
          {t("signature.resend")}
        </button>
      </div>
      <DisabledReason id="signature-verify-reason" reason={verifyReason} />
    </>
  );
}

function ResendActions() {
  const { t } = useTranslation("messages");
  return (
    <div className="form-actions">
      <button type="submit" name="intent" value="resend" className="button">
        {t("signature.resend")}
      </button>
    </div>
  );
}

/** The first step: Sign or Decline. */
function ChooseForm({ action, alert }: { action: string; alert: string | null }) {
  const { t } = useTranslation("messages");
  return (
    <Form method="post" action={action} className="signature-form">
      <AuthenticityTokenInput />
      <Alert message={alert} />
      <fieldset className="signature-choice">
        <legend>{t("signature.choose")}</legend>
        <div className="form-actions">
          <button type="submit" name="intent" value="sign" className="button">
            {t("signature.sign")}
          </button>
          <button type="submit" name="intent" value="decline" className="button button--secondary">
            {t("signature.decline")}
          </button>
        </div>
      </fieldset>
    </Form>
  );
}

function Journey({ view, answer }: { view: SignatureView; answer: JourneyAnswer | undefined }) {
  const { t } = useTranslation("messages");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const step = answer ? answer.step : view.step;
  const errors = answer?.errors ?? [];
  const alert = answer?.alert ?? null;
  const action = `${SIGNATURES_PATH}/${view.id}${step ? `?step=${step}` : ""}`;
  const [accepted, setAccepted] = useState(step === "code");
  const [code, setCode] = useState("");
  // spec 002 step 3: why Verify is disabled, beside it (issue 25 item 10); not while sending
  const verifyReason =
    !hydrated || busy
      ? null
      : !accepted
        ? t("signature.verifyReason.terms")
        : !code.trim()
          ? t("signature.verifyReason.code")
          : null;

  if (step === "invalid-phone")
    return (
      <p className="alert alert--error" role="alert">
        {t("signature.errors.invalidPhone")}
      </p>
    );

  if (step === "decline") return <DeclineForm view={view} action={action} alert={alert} busy={busy} />;

  if (step === "terms" || step === "code" || step === "expired")
    return (
      <Form method="post" action={action} className="signature-form" noValidate>
        <AuthenticityTokenInput />
        <h3>{t("signature.signHeading")}</h3>
        <Alert message={alert} />
        <Terms view={view} />
        <AcceptField step={step} action={action} errors={errors} accepted={accepted} onAccepted={setAccepted} />
        {step === "terms" ? (
          <RequestCodeActions busy={busy} />
        ) : step === "code" ? (
          <CodeEntry errors={errors} code={code} onCode={setCode} verifyReason={verifyReason} busy={busy} />
        ) : (
          <ResendActions />
        )}
      </Form>
    );

  return <ChooseForm action={action} alert={alert} />;
}

export default function SignatureRoute() {
  const { view } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as JourneyAnswer | undefined;
  const { t } = useTranslation("messages");
  return (
    <div className="page page--signature">
      <p>
        <Link to={view.backHref}>{t("signature.back")}</Link>
      </p>
      {view.canSign ? <ErrorSummary errors={answer?.errors ?? []} /> : null}
      <h1>{view.title}</h1>
      <p className="signature-meta">
        <span className={`tag tag--${view.badge.tone}`}>{view.badge.text}</span>
        {view.due ? <span> {t("signature.due", { date: view.due })}</span> : null}
      </p>
      <Signatories view={view} />
      <Document view={view} />
      <section id="signature-journey" className="signature-journey" aria-labelledby="signature-journey-heading">
        <h2 id="signature-journey-heading">{t("signature.journeyHeading")}</h2>
        {view.canSign ? (
          <Journey key={`${view.step ?? ""}|${answer?.step ?? ""}`} view={view} answer={answer} />
        ) : view.outcome && !view.readOnly ? (
          // issue 25 item 11: who signed (or declined) and when, with the signed copy above
          <p className={`alert ${view.outcome.signed ? "alert--success" : "alert--info"} signature-outcome`}>
            {view.outcome.text}
          </p>
        ) : (
          <p className="alert alert--info">{t(view.readOnly ? "signature.readOnly" : "signature.nothingToDo")}</p>
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
