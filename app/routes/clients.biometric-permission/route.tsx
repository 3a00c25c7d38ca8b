import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorSummary, FieldError, type SummaryError } from "~/components/error-summary";
import { PlainPasswordField } from "~/components/plain-password-field";
import { loadWebAuthn, OptionsUnavailable, passkeysSupported, useCeremonyOptions } from "~/components/passkey-ceremony";
import { PAGE_PATHS } from "~/lib/navigation";
import { type CeremonyProblem, ceremonyProblemOf, devicePasskeys, PASSKEY_NAME_MAX } from "~/lib/passkeys";
import { listPasskeys } from "~/planning/passkeys.server";
import { logger } from "~/runtime/logger.server";
import { readForm } from "~/session/csrf.server";
import { attempt } from "~/session/failures.server";
import { requireClient } from "~/session/guards.server";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { readDevicePasskeys } from "~/session/passkey-device.server";
import { updateSessionUser } from "~/session/session.server";
import { type ActionData, passkeyRows, remove, rename, save } from "./passkeys.server";
import { TableRegion } from "~/components/table-region";
import { errorPageTitle } from "~/lib/error-title";

// spec 000 §2 "Biometric permission page" on the web (issue 15, docs/decisions/101): one checkbox,
// 'Grant permission to login via a biometric check', and Save, enabled after a change while
// JavaScript runs. Granting registers a passkey on this device (the browser's WebAuthn, so it needs
// JavaScript); withdrawing removes this device's. Below, the client's passkeys with rename and
// remove, plain forms that work without JavaScript. Clients only (the clients section's page).
// Granting, withdrawing and removing ask for the current password first (ASVS V3.7.1, decision
// 179): a grant's options are given only for it (the page's script posts it to the options route),
// a withdrawal or a removal posts it with the form; Remove first shows the password's form
// (`?remove=<id>`, a link, as Rename is).

export const handle = { i18n: ["security"] };

const PAGE = PAGE_PATHS.biometricPermission;
const OPTIONS_PATH = `${PAGE}/options`;

export async function loader({ request }: LoaderFunctionArgs) {
  const { planning, user } = await requireClient(request);
  const [t, locale, listed, deviceIds] = await Promise.all([
    getFixedT(request, "security"),
    resolveLocale(request),
    attempt(request, listPasskeys(planning)),
    readDevicePasskeys(request),
  ]);
  const title = t("biometric.title");
  if (!listed.ok) {
    logger.error("passkeys unavailable", { status: listed.error.status });
    // spec 000 §8: the load failure is shown on the page.
    return json({ title, loadFailed: true, granted: false, passkeys: [], renaming: null, removing: null });
  }
  const mine = devicePasskeys(
    deviceIds,
    listed.value.map((p) => p.id),
  );
  const search = new URL(request.url).searchParams;
  const renameId = Number(search.get("rename"));
  const removeId = Number(search.get("remove"));
  // The menu's rule reads the session's flag: put it right when passkeys came or went elsewhere.
  const has = listed.value.length > 0;
  const headers = new Headers();
  if (Boolean(user.hasPasskey) !== has)
    headers.append("Set-Cookie", await updateSessionUser(request, { ...user, hasPasskey: has }));
  return json(
    {
      title,
      loadFailed: false,
      granted: mine.length > 0,
      passkeys: passkeyRows(listed.value, mine, user.userTimezone, locale),
      renaming: listed.value.some((p) => p.id === renameId) ? renameId : null,
      removing: listed.value.some((p) => p.id === removeId) ? removeId : null,
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { planning, user } = await requireClient(request);
  const formData = await readForm(request);
  const post = { request, formData, planning, user };
  switch (formData.get("intent")) {
    case "save":
      return save(post);
    case "rename":
      return rename(post);
    case "remove":
      return remove(post);
    default:
      throw new Response("Bad request", { status: 400 });
  }
}

/** The field of the current password in the permission's form (decision 179). */
const PERMISSION_PASSWORD = "permission-current-password";
const REMOVE_PASSWORD = "remove-current-password";

let answers = 0;
/** A number that changes with each answer of the server, to remount (empty) a password field. */
function useAnswerCount(answer: unknown): number {
  return useMemo(() => (answer ? ++answers : 0), [answer]);
}

const CEREMONY_KEYS: Record<CeremonyProblem, string> = {
  cancelled: "biometric.errors.cancelled",
  alreadyRegistered: "biometric.errors.alreadyRegistered",
  unsupported: "biometric.unsupported",
  failed: "biometric.errors.failed",
};

/** A refusal of the options that belongs beside the current password (decision 179). */
function passwordErrorOf(error: unknown): string | null {
  return error instanceof OptionsUnavailable ? (error.refusal?.fieldError ?? null) : null;
}

function problemKeyOf(error: unknown): string {
  if (error instanceof OptionsUnavailable && error.refusal?.messageKey) return error.refusal.messageKey;
  if (error instanceof OptionsUnavailable)
    return error.status === 409 ? "biometric.errors.tooMany" : "biometric.errors.save";
  return CEREMONY_KEYS[ceremonyProblemOf(error)];
}

/**
 * Granting the permission: the browser's registration ceremony, whose answer is posted with the
 * form. The ceremony's options are asked for on Save, with the form's current password (decision
 * 179: they are given only for it), then the password is emptied so that the form's post, which
 * carries the browser's answer, does not carry it again.
 */
function useRegistration(
  formRef: React.RefObject<HTMLFormElement>,
  responseRef: React.RefObject<HTMLInputElement>,
  setProblem: (problem: string | null) => void,
  setPasswordError: (error: string | null) => void,
) {
  const submit = useSubmit();
  const [busy, setBusy] = useState(false);
  const { next: nextOptions, spend: spendOptions } = useCeremonyOptions<PublicKeyCredentialCreationOptionsJSON>(
    OPTIONS_PATH,
    formRef,
  );
  async function register(form: HTMLFormElement) {
    setBusy(true);
    setProblem(null);
    setPasswordError(null);
    try {
      const optionsJSON = await nextOptions();
      const password = form.elements.namedItem("currentPassword");
      if (password instanceof HTMLInputElement) password.value = "";
      const { startRegistration } = await loadWebAuthn();
      const response = await startRegistration({ optionsJSON });
      // The challenge is spent by the verification, whatever its outcome.
      spendOptions();
      if (responseRef.current) responseRef.current.value = JSON.stringify(response);
      submit(form, { method: "post" });
    } catch (error) {
      spendOptions();
      const passwordError = passwordErrorOf(error);
      if (passwordError) setPasswordError(passwordError);
      else setProblem(problemKeyOf(error));
    } finally {
      setBusy(false);
    }
  }
  return { register, busy };
}

function PermissionForm({ initialGranted, answer }: { initialGranted: boolean; answer: ActionData | undefined }) {
  const { t } = useTranslation("security");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const responseRef = useRef<HTMLInputElement>(null);
  const [granted, setGranted] = useState(answer?.granted ?? initialGranted);
  const [supported, setSupported] = useState<boolean | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [scriptPasswordError, setPasswordError] = useState<string | null>(null);
  // the script's refusals empty the password as the server's answers do
  const [refusals, setRefusals] = useState(0);
  const answered = useAnswerCount(answer);
  const { register, busy } = useRegistration(formRef, responseRef, setProblem, (error) => {
    setPasswordError(error);
    if (error) setRefusals((n) => n + 1);
  });
  useEffect(() => setSupported(passkeysSupported()), []);
  useEffect(() => {
    setGranted(answer?.granted ?? initialGranted);
    setProblem(null);
    setPasswordError(null);
  }, [answer, initialGranted]);

  const registering = granted && !initialGranted;
  // Disabled until the choice changes, only while JavaScript runs (conventions "Forms").
  const disabled = (hydrated && granted === initialGranted) || busy || navigation.state !== "idle";

  const hint = !hydrated ? "biometric.needsScript" : supported === false ? "biometric.unsupported" : "biometric.hint";
  const fieldError = answer?.fieldError;
  const passwordError = scriptPasswordError ?? answer?.passwordError ?? null;
  const shownProblem = problem ?? answer?.problem ?? (answer?.failure ? "biometric.errors.save" : null);
  // decision 179: the current password, once the choice differs while JavaScript runs, always without it
  const askPassword = !hydrated || granted !== initialGranted || Boolean(passwordError);
  // the page's summary holds what the server answered; a password the options route refused
  // while the script asked (before any post) is summed up here
  const summary = scriptPasswordError ? [{ fieldId: PERMISSION_PASSWORD, message: scriptPasswordError }] : [];
  return (
    <Form
      method="post"
      className="form"
      ref={formRef}
      onSubmit={(event) => {
        // Withdrawing (or saving the choice as it stands) is a plain post; granting needs the ceremony.
        if (!registering) return;
        event.preventDefault();
        if (supported === false) setProblem("biometric.unsupported");
        else void register(event.currentTarget);
      }}
    >
      <ErrorSummary errors={summary} />
      {shownProblem ? (
        <div className="alert alert--error" role="alert">
          <p>{t(shownProblem)}</p>
        </div>
      ) : null}
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="response" ref={responseRef} defaultValue="" />
      <GrantCheckbox granted={granted} fieldError={fieldError} hint={hint} onChange={setGranted} />
      {askPassword ? (
        <PlainPasswordField
          id={PERMISSION_PASSWORD}
          hint={t("biometric.currentPasswordHint")}
          error={passwordError}
          remountKey={`${refusals}-${answered}`}
        />
      ) : null}
      <button type="submit" className="button" disabled={disabled}>
        {busy ? t("biometric.waiting") : t("biometric.save")}
      </button>
    </Form>
  );
}

/** The permission's checkbox, its hint (what this browser can do) and its error. */
function GrantCheckbox({
  granted,
  fieldError,
  hint,
  onChange,
}: {
  granted: boolean;
  fieldError: string | undefined;
  hint: string;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation("security");
  return (
    <div className={`field${fieldError ? " field--error" : ""}`}>
      {fieldError ? <FieldError id="granted-error" errors={[`security:${fieldError}`]} /> : null}
      <div className="checkbox">
        <input
          id="granted"
          type="checkbox"
          name="granted"
          checked={granted}
          aria-describedby={["granted-hint", fieldError ? "granted-error" : null].filter(Boolean).join(" ")}
          aria-invalid={fieldError ? true : undefined}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
        <label htmlFor="granted">{t("biometric.grant")}</label>
      </div>
      <p id="granted-hint" className="field__hint">
        {t(hint)}
      </p>
    </div>
  );
}

type PasskeyRow = { id: number; name: string; created: string; lastUsed: string | null; thisDevice: boolean };

function RenameForm({ passkey, answer }: { passkey: PasskeyRow; answer: ActionData | undefined }) {
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  const inputRef = useRef<HTMLInputElement>(null);
  const mine = answer?.intent === "rename" && answer.id === passkey.id ? answer : undefined;
  const error = mine?.fieldError;
  useEffect(() => inputRef.current?.focus(), []);
  return (
    <Form method="post" action={`?rename=${passkey.id}`} className="form passkeys__rename">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="rename" />
      <input type="hidden" name="id" value={passkey.id} />
      <div className={`field${error ? " field--error" : ""}`}>
        <label htmlFor="passkey-name" className="field__label">
          {t("biometric.list.newName", { name: passkey.name })}
        </label>
        {error ? <FieldError id="passkey-name-error" errors={[`security:${error}`]} /> : null}
        <input
          ref={inputRef}
          id="passkey-name"
          name="name"
          className="field__input"
          defaultValue={mine?.name ?? passkey.name}
          maxLength={PASSKEY_NAME_MAX}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "passkey-name-error" : undefined}
        />
      </div>
      <div className="button-group">
        <button type="submit" className="button" disabled={navigation.state === "submitting"}>
          {t("biometric.list.saveName")}
        </button>
        <Link to={PAGE} className="button button--secondary">
          {t("biometric.list.cancel")}
        </Link>
      </div>
    </Form>
  );
}

/**
 * Removing a passkey: its current password first (decision 179), in the row, as Rename's form is;
 * a plain post to `?remove=<id>`, so a refusal comes back to the same form.
 */
function RemoveForm({ passkey, answer }: { passkey: PasskeyRow; answer: ActionData | undefined }) {
  const { t } = useTranslation("security");
  const navigation = useNavigation();
  const mine = answer?.intent === "remove" && answer.id === passkey.id ? answer : undefined;
  const error = mine?.passwordError ?? null;
  const answered = useAnswerCount(mine);
  const fieldId = REMOVE_PASSWORD;
  return (
    <Form
      method="post"
      action={`?remove=${passkey.id}`}
      className="form passkeys__remove"
      aria-label={`${t("biometric.list.confirmRemove")} ${passkey.name}`}
    >
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="id" value={passkey.id} />
      <PlainPasswordField
        id={fieldId}
        hint={t("biometric.list.removeIntro", { name: passkey.name })}
        error={error}
        remountKey={answered}
      />
      <div className="button-group">
        <button type="submit" className="button" disabled={navigation.state === "submitting"}>
          {t("biometric.list.confirmRemove")}
          <span className="visually-hidden"> {passkey.name}</span>
        </button>
        <Link to={PAGE} className="button button--secondary">
          {t("biometric.list.cancel")}
        </Link>
      </div>
    </Form>
  );
}

/** A passkey's Rename and Remove (links: the row becomes a form), each naming the passkey. */
function PasskeyActions({ passkey }: { passkey: PasskeyRow }) {
  const { t } = useTranslation("security");
  return (
    <div className="button-group">
      <Link to={`?rename=${passkey.id}`} className="button button--secondary">
        {t("biometric.list.rename")}
        <span className="visually-hidden"> {passkey.name}</span>
      </Link>
      <Link to={`?remove=${passkey.id}`} className="button button--secondary">
        {t("biometric.list.remove")}
        <span className="visually-hidden"> {passkey.name}</span>
      </Link>
    </div>
  );
}

function PasskeyList({
  passkeys,
  renaming,
  removing,
  answer,
}: {
  passkeys: PasskeyRow[];
  renaming: number | null;
  removing: number | null;
  answer: ActionData | undefined;
}) {
  const { t } = useTranslation("security");
  const listAnswer = answer && answer.intent !== "save" ? answer : undefined;
  const problem = listAnswer?.problem ?? (listAnswer?.failure ? "biometric.errors.save" : null);
  return (
    <section className="passkeys" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t("biometric.list.title")}</h2>
      <p>{t("biometric.list.intro")}</p>
      {problem ? (
        <div className="alert alert--error" role="alert">
          <p>{t(problem)}</p>
        </div>
      ) : null}
      {passkeys.length === 0 ? (
        <p>{t("biometric.list.empty")}</p>
      ) : (
        // its own scrolling region at 320 px, named by the caption (decision 117)
        <TableRegion captionId="passkeys-caption">
          <table>
            <caption id="passkeys-caption" className="visually-hidden">
              {t("biometric.list.caption")}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t("biometric.list.name")}</th>
                <th scope="col">{t("biometric.list.created")}</th>
                <th scope="col">{t("biometric.list.lastUsed")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("biometric.list.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {passkeys.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    {p.name}
                    {p.thisDevice ? (
                      <span className="badge badge--neutral passkeys__device">{t("biometric.list.thisDevice")}</span>
                    ) : null}
                  </th>
                  <td>{p.created}</td>
                  <td>{p.lastUsed ?? t("biometric.list.never")}</td>
                  <td>
                    {renaming === p.id ? (
                      <RenameForm passkey={p} answer={answer} />
                    ) : removing === p.id ? (
                      <RemoveForm passkey={p} answer={answer} />
                    ) : (
                      <PasskeyActions passkey={p} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

/**
 * The page's error summary, above its h1 (GOV.UK's pattern): the permission's error, or the error
 * of the passkey being renamed.
 */
function pageErrors(answer: ActionData | undefined, renaming: number | null): SummaryError[] {
  if (!answer) return [];
  const error = answer.fieldError;
  // a wrong or missing current password (decision 179), by the form that asked for it
  const password = answer.passwordError
    ? [{ fieldId: answer.intent === "remove" ? REMOVE_PASSWORD : PERMISSION_PASSWORD, message: answer.passwordError }]
    : [];
  if (answer.intent === "save")
    return [...(error ? [{ fieldId: "granted", message: `security:${error}` }] : []), ...password];
  if (answer.intent === "rename" && error && answer.id === renaming)
    return [{ fieldId: "passkey-name", message: `security:${error}` }];
  return password;
}

export default function BiometricPermission() {
  const { loadFailed, granted, passkeys, renaming, removing } = useLoaderData<typeof loader>();
  const answer = useActionData<ActionData>();
  const { t } = useTranslation("security");
  return (
    <div className="page page--biometric-permission">
      <ErrorSummary errors={loadFailed ? [] : pageErrors(answer, renaming)} />
      <h1>{t("biometric.title")}</h1>
      <p className="page__intro">{t("biometric.intro")}</p>
      {loadFailed ? (
        <div className="alert alert--error" role="alert">
          <p>{t("biometric.errors.load")}</p>
        </div>
      ) : (
        <>
          <PermissionForm initialGranted={granted} answer={answer?.intent === "save" ? answer : undefined} />
          <PasskeyList passkeys={passkeys} renaming={renaming} removing={removing} answer={answer} />
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
