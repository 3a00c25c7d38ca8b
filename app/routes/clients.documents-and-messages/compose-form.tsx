import { type FieldMetadata, getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { useBrowserValidation } from "~/components/browser-validation";
import { ErrorSummary, Field, FieldError, summaryErrors } from "~/components/forms";
import { ACCEPTED_EXTENSIONS } from "~/lib/attachments";
import { numberFormat } from "~/lib/format";
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
  /** The page's h1: the form's error summary stands above it (GOV.UK's pattern). */
  heading: string;
};

function isComposeActionData(value: unknown): value is ComposeActionData {
  return typeof value === "object" && value !== null && "result" in value && "postedFiles" in value;
}

type ChosenFile = PostedFile & { size: number };

function chosenFiles(list: FileList | null | undefined): ChosenFile[] {
  return Array.from(list ?? []).map((f) => ({ name: f.name, size: f.size, problem: attachmentProblem(f) }));
}

/** spec 002 §4: while sending, a blocking modal shows and leaving the page asks first. */
function useSendingDialog(sending: boolean) {
  const dialogRef = useRef<HTMLDialogElement>(null);

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

  return dialogRef;
}

/** A reply keeps the original's subject: shown, and sent as the message replied to. */
function ReplySubject({ replyTo }: { replyTo: { id: number; subject: string } }) {
  const { t } = useTranslation("compose");
  return (
    <div className="field compose__reply-subject">
      <p className="field__label" id="compose-subject-label">
        {t("subject.label")}
      </p>
      <p aria-labelledby="compose-subject-label">{replyTo.subject}</p>
      <input type="hidden" name="replyTo" value={replyTo.id} />
    </div>
  );
}

function BodyField({ meta }: { meta: FieldMetadata<string | undefined> }) {
  const { t } = useTranslation("compose");
  const { key: bodyKey, ...bodyProps } = getTextareaProps(meta, { ariaAttributes: false });
  const bodyInvalid = Boolean(meta.errors?.length);
  return (
    <div className={["field", bodyInvalid ? "field--error" : ""].join(" ").trim()}>
      <label htmlFor={meta.id} className="field__label">
        {t("body.label")}
      </label>
      {bodyInvalid ? <FieldError id={meta.errorId} errors={meta.errors ?? []} /> : null}
      <textarea
        key={bodyKey}
        {...bodyProps}
        className="textarea compose__body"
        rows={10}
        aria-invalid={bodyInvalid || undefined}
        aria-describedby={bodyInvalid ? meta.errorId : undefined}
      />
    </div>
  );
}

/** Files a refused submission without JavaScript could not keep: named, to be chosen again. */
function NotKeptFiles({ files }: { files: PostedFile[] }) {
  const { t } = useTranslation("compose");
  return (
    <div className="compose__not-kept">
      <p>{t("attachments.notKept")}</p>
      <ul className="compose__files">
        {files.map((file, index) => (
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
  );
}

/**
 * The files chosen, with their size and any problem, announced as they change. The sizes' number
 * format is made here, when there are files to list: the browser's first number format costs tens of
 * milliseconds, which the page's hydration need not pay (docs/decisions/161).
 */
function ChosenFiles({ files }: { files: ChosenFile[] }) {
  const { t, i18n } = useTranslation("compose");
  const kilobytes = numberFormat(i18n.language, { maximumFractionDigits: 0 });
  return (
    <div aria-live="polite">
      <p className="compose__files-title">{t("attachments.chosen")}</p>
      <ul className="compose__files">
        {files.map((file, index) => (
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
  );
}

/** spec 002 §5 attachments: the file input, the files a refused submission lost and those chosen. */
function AttachmentsField({
  meta,
  fileInput,
  notKept,
  chosen,
  onChosen,
}: {
  meta: FieldMetadata<unknown>;
  fileInput: React.RefObject<HTMLInputElement>;
  notKept: PostedFile[];
  /** The files to list (none before JavaScript runs). */
  chosen: ChosenFile[];
  onChosen: (files: FileList | null) => void;
}) {
  const { t } = useTranslation("compose");
  const { key: attachmentsKey, ...attachmentsProps } = getInputProps(meta, { type: "file", ariaAttributes: false });
  const attachmentsInvalid = Boolean(meta.errors?.length);
  return (
    <div className={["field", attachmentsInvalid ? "field--error" : ""].join(" ").trim()}>
      <label htmlFor={meta.id} className="field__label">
        {t("attachments.label")}
      </label>
      <p id={meta.descriptionId} className="field__hint">
        {t("attachments.hint")}
      </p>
      {attachmentsInvalid ? <FieldError id={meta.errorId} errors={meta.errors ?? []} /> : null}
      {notKept.length ? <NotKeptFiles files={notKept} /> : null}
      <input
        key={attachmentsKey}
        {...attachmentsProps}
        ref={fileInput}
        multiple
        accept={ACCEPTED_EXTENSIONS}
        className="compose__file-input"
        aria-invalid={attachmentsInvalid || undefined}
        aria-describedby={[meta.descriptionId, attachmentsInvalid ? meta.errorId : null].filter(Boolean).join(" ")}
        onChange={(event) => onChosen(event.currentTarget.files)}
      />
      {chosen.length ? <ChosenFiles files={chosen} /> : null}
    </div>
  );
}

function SendingDialog({ dialogRef }: { dialogRef: React.RefObject<HTMLDialogElement> }) {
  const { t } = useTranslation("compose");
  return (
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
  );
}

export function ComposeForm({ mode, replyTo, cancelHref, heading }: ComposeFormProps) {
  const { t } = useTranslation("compose");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const data = useActionData<unknown>();
  const actionData = isComposeActionData(data) ? data : undefined;
  const fileInput = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<ChosenFile[]>([]);

  // validated on Send and again as the user types (issue 25 item 1): never on leaving a field
  const validation = useBrowserValidation(() => import("./compose-schemas").then((m) => m.ComposeBrowserSchema));
  const [form, fields] = useForm({
    id: "compose-message",
    lastResult: actionData?.result,
    ...validation.form,
  });

  // The browser keeps the chosen files across a refused JavaScript submission: read them again.
  useEffect(() => {
    setChosen(chosenFiles(fileInput.current?.files));
  }, [actionData]);

  // spec 002 §4: sending is in flight while this multipart form's submission is.
  const sending = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
  const dialogRef = useSendingDialog(sending);

  const fileErrors = attachmentErrors(chosen);
  const invalid = Boolean(fields.subject.errors?.length || fields.body.errors?.length || fileErrors.length);
  // Buttons are disabled only once JavaScript runs (conventions "Forms"); without it the server answers.
  const sendDisabled = hydrated && (sending || invalid);

  const notKept = !chosen.length && actionData?.postedFiles.length ? actionData.postedFiles : [];

  return (
    <div className="compose">
      <ErrorSummary formId={form.id} errors={summaryErrors([fields.subject, fields.body, fields.attachments])} />
      <h1>{heading}</h1>
      <h2 className="compose__title">{t(mode === "reply" ? "title.reply" : "title.compose")}</h2>
      {actionData?.messageKey ? (
        <div className="alert alert--error" role="alert">
          <p>{t(actionData.messageKey)}</p>
        </div>
      ) : null}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form compose__form">
        <AuthenticityTokenInput />
        {mode === "reply" && replyTo ? (
          <ReplySubject replyTo={replyTo} />
        ) : (
          <Field meta={fields.subject} label={t("subject.label")} autoComplete="off" />
        )}
        <BodyField meta={fields.body} />
        <AttachmentsField
          meta={fields.attachments}
          fileInput={fileInput}
          notKept={notKept}
          chosen={hydrated ? chosen : []}
          onChosen={(files) => {
            setChosen(chosenFiles(files));
            form.validate({ name: fields.attachments.name });
          }}
        />
        <div className="compose__actions">
          <Link to={cancelHref} className="button button--secondary">
            {t("cancel")}
          </Link>
          <button type="submit" className="button" disabled={sendDisabled}>
            {t("send")}
          </button>
        </div>
      </Form>
      <SendingDialog dialogRef={dialogRef} />
    </div>
  );
}
