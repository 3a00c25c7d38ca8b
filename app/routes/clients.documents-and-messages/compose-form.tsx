import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useBrowserValidation } from "~/components/browser-validation";
import { ErrorSummary, Field, FieldError, summaryErrors } from "~/components/forms";
import { ACCEPTED_EXTENSIONS } from "~/lib/attachments";
import { attachmentErrors, attachmentProblem, type ComposeActionData, type PostedFile } from "./compose";

// spec 002 "Compose and reply", §4 "Sending", §5 "Compose". A plain multipart form that works
// without JavaScript; with it, the subject and the chosen files are checked before sending, Send is
// disabled while invalid or sending, and a blocking modal with a leave-page warning shows while
// the message is being sent. docs/decisions/078-compose-and-reply.md.

type ComposeFormProps = {
  mode: "compose" | "reply";
  /** The message replied to (its subject as the platform has it); null when composing. */
  replyTo: { id: number; subject: string } | null;
  cancelHref: string;
};

function isComposeActionData(value: unknown): value is ComposeActionData {
  return typeof value === "object" && value !== null && "result" in value && "postedFiles" in value;
}

export function ComposeForm({ mode, replyTo, cancelHref }: ComposeFormProps) {
  const { t, i18n } = useTranslation("compose");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const data = useActionData<unknown>();
  const actionData = isComposeActionData(data) ? data : undefined;
  const fileInput = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState<Array<PostedFile & { size: number }>>([]);

  // validated on Send and again as the user types (issue 25 item 1): never on leaving a field
  const validation = useBrowserValidation(() => import("./compose-schemas").then((m) => m.ComposeBrowserSchema));
  const [form, fields] = useForm({
    id: "compose-message",
    lastResult: actionData?.result,
    ...validation.form,
  });

  // The browser keeps the chosen files across a refused JavaScript submission: read them again.
  useEffect(() => {
    const files = Array.from(fileInput.current?.files ?? []);
    setChosen(files.map((f) => ({ name: f.name, size: f.size, problem: attachmentProblem(f) })));
  }, [actionData]);

  // spec 002 §4: sending is in flight while this multipart form's submission is.
  const sending = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (sending && !dialog.open) dialog.showModal();
    else if (!sending && dialog.open) dialog.close();
  }, [sending]);

  useEffect(() => {
    if (!sending) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // older browsers show the warning only when a value is set
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [sending]);

  const fileErrors = attachmentErrors(chosen);
  const invalid = Boolean(fields.subject.errors?.length || fields.body.errors?.length || fileErrors.length);
  // Buttons are disabled only once JavaScript runs (conventions "Forms"); without it the server answers.
  const sendDisabled = hydrated && (sending || invalid);

  const kilobytes = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const { key: attachmentsKey, ...attachmentsProps } = getInputProps(fields.attachments, {
    type: "file",
    ariaAttributes: false,
  });
  const { key: bodyKey, ...bodyProps } = getTextareaProps(fields.body, { ariaAttributes: false });
  const attachmentsInvalid = Boolean(fields.attachments.errors?.length);
  const bodyInvalid = Boolean(fields.body.errors?.length);
  const notKept = !chosen.length && actionData?.postedFiles.length ? actionData.postedFiles : [];

  return (
    <div className="compose">
      <h2 className="compose__title">{t(mode === "reply" ? "title.reply" : "title.compose")}</h2>
      {actionData?.messageKey ? (
        <div className="alert alert--error" role="alert">
          <p>{t(actionData.messageKey)}</p>
        </div>
      ) : null}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form compose__form">
        <ErrorSummary errors={summaryErrors([fields.subject, fields.body, fields.attachments])} />
        <AuthenticityTokenInput />
        {mode === "reply" && replyTo ? (
          <div className="field compose__reply-subject">
            <p className="field__label" id="compose-subject-label">
              {t("subject.label")}
            </p>
            <p aria-labelledby="compose-subject-label">{replyTo.subject}</p>
            <input type="hidden" name="replyTo" value={replyTo.id} />
          </div>
        ) : (
          <Field meta={fields.subject} label={t("subject.label")} autoComplete="off" />
        )}
        <div className={["field", bodyInvalid ? "field--error" : ""].join(" ").trim()}>
          <label htmlFor={fields.body.id} className="field__label">
            {t("body.label")}
          </label>
          {bodyInvalid ? <FieldError id={fields.body.errorId} errors={fields.body.errors ?? []} /> : null}
          <textarea
            key={bodyKey}
            {...bodyProps}
            className="textarea compose__body"
            rows={10}
            aria-invalid={bodyInvalid || undefined}
            aria-describedby={bodyInvalid ? fields.body.errorId : undefined}
          />
        </div>
        <div className={["field", attachmentsInvalid ? "field--error" : ""].join(" ").trim()}>
          <label htmlFor={fields.attachments.id} className="field__label">
            {t("attachments.label")}
          </label>
          <p id={fields.attachments.descriptionId} className="field__hint">
            {t("attachments.hint")}
          </p>
          {attachmentsInvalid ? (
            <FieldError id={fields.attachments.errorId} errors={fields.attachments.errors ?? []} />
          ) : null}
          {notKept.length ? (
            <div className="compose__not-kept">
              <p>{t("attachments.notKept")}</p>
              <ul className="compose__files">
                {notKept.map((file, index) => (
                  <li
                    key={`${file.name}-${index}`}
                    className={file.problem ? "compose__file compose__file--invalid" : "compose__file"}
                  >
                    <span className="compose__file-name">{file.name}</span>
                    {file.problem ? <span className="compose__file-problem">{t(file.problem)}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <input
            key={attachmentsKey}
            {...attachmentsProps}
            ref={fileInput}
            multiple
            accept={ACCEPTED_EXTENSIONS}
            className="compose__file-input"
            aria-invalid={attachmentsInvalid || undefined}
            aria-describedby={[fields.attachments.descriptionId, attachmentsInvalid ? fields.attachments.errorId : null]
              .filter(Boolean)
              .join(" ")}
            onChange={(event) => {
              const files = Array.from(event.currentTarget.files ?? []);
              setChosen(files.map((f) => ({ name: f.name, size: f.size, problem: attachmentProblem(f) })));
              form.validate({ name: fields.attachments.name });
            }}
          />
          {hydrated && chosen.length ? (
            <div aria-live="polite">
              <p className="compose__files-title">{t("attachments.chosen")}</p>
              <ul className="compose__files">
                {chosen.map((file, index) => (
                  <li
                    key={`${file.name}-${index}`}
                    className={file.problem ? "compose__file compose__file--invalid" : "compose__file"}
                  >
                    <span className="compose__file-name">{file.name}</span>{" "}
                    <span className="compose__file-size">
                      {t("attachments.size", { size: kilobytes.format(Math.max(1, Math.ceil(file.size / 1000))) })}
                    </span>
                    {file.problem ? <span className="compose__file-problem">{t(file.problem)}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
        <div className="compose__actions">
          <Link to={cancelHref} className="button button--secondary">
            {t("cancel")}
          </Link>
          <button type="submit" className="button" disabled={sendDisabled}>
            {t("send")}
          </button>
        </div>
      </Form>
      <dialog
        ref={dialogRef}
        className="compose__sending"
        aria-labelledby="compose-sending-title"
        aria-describedby="compose-sending-text"
        onCancel={(event) => event.preventDefault()}
      >
        <p id="compose-sending-title" className="compose__sending-title">
          <span className="spinner" aria-hidden="true" />
          {t("sending.title")}
        </p>
        <p id="compose-sending-text">{t("sending.text")}</p>
      </dialog>
    </div>
  );
}
