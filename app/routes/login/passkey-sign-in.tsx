import { useFetcher } from "@remix-run/react";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import {
  autofillSupported,
  loadWebAuthn,
  OptionsUnavailable,
  passkeysSupported,
  useCeremonyOptions,
} from "~/components/passkey-ceremony";
import { useShellData } from "~/components/shell/root-data";
import { type CeremonyProblem, ceremonyProblemOf } from "~/lib/passkeys";
import type { PasskeyActionData } from "./login.server";
import { StepAlert } from "./step-alert";

// docs/decisions/101 and 206: spec 000 §2's 'Login using biometrics' (its mobile wrapper's) on the web. With a browser that has
// passkeys, the button runs a passkey sign-in, and the username field offers the user's passkeys
// in its autofill (conditional mediation). The ceremony's answer goes to the login action through
// a fetcher, so a refusal leaves the password form exactly as the user left it. Without
// JavaScript, or without passkeys, none of this is shown.

const OPTIONS_PATH = "/login/passkey";

type Answer = PasskeyActionData["passkey"];

const PROBLEM_KEYS: Record<CeremonyProblem, string> = {
  cancelled: "login.passkey.cancelled",
  unsupported: "login.passkey.unsupported",
  alreadyRegistered: "login.passkey.failed",
  failed: "login.passkey.failed",
};

function problemAnswer(error: unknown): Answer {
  if (error instanceof OptionsUnavailable) {
    return {
      alert: { kind: "error", key: error.status === 429 ? "login.passkey.tooMany" : "login.passkey.unavailable" },
    };
  }
  return { alert: { kind: "error", key: PROBLEM_KEYS[ceremonyProblemOf(error)] } };
}

export function PasskeySignIn({ userType, redirectTo }: { userType: "client" | "adviser"; redirectTo: string | null }) {
  const { t } = useTranslation("auth");
  const fetcher = useFetcher<PasskeyActionData>();
  const formRef = useRef<HTMLFormElement>(null);
  const responseRef = useRef<HTMLInputElement>(null);
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const { submit } = fetcher;
  const waiting = busy || fetcher.state !== "idle";

  const { next: nextOptions, spend: spendOptions } = useCeremonyOptions<PublicKeyCredentialRequestOptionsJSON>(
    OPTIONS_PATH,
    formRef,
  );

  /** The browser's answer goes to the login action: a session, a step, or a message here. */
  const finish = useCallback(
    (response: unknown) => {
      const form = formRef.current;
      if (!form || !responseRef.current) return;
      // The challenge is spent by its verification, whatever the outcome.
      spendOptions();
      responseRef.current.value = JSON.stringify(response);
      submit(form, { method: "post", action: "/login" });
    },
    [submit, spendOptions],
  );

  useEffect(() => setSupported(passkeysSupported()), []);
  useAutofillCeremony(supported, nextOptions, finish, setAnswer);

  // The action's refusal (a redirect navigates away instead).
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.passkey) setAnswer(fetcher.data.passkey);
  }, [fetcher.state, fetcher.data]);

  async function signInWithPasskey() {
    if (waiting) return;
    setAnswer(null);
    setBusy(true);
    try {
      const optionsJSON = await nextOptions();
      const { startAuthentication } = await loadWebAuthn();
      finish(await startAuthentication({ optionsJSON }));
    } catch (error) {
      spendOptions();
      setAnswer(problemAnswer(error));
    } finally {
      setBusy(false);
    }
  }

  if (!supported) return null;
  return (
    <div className="login__passkey">
      <p className="login__or">{t("login.passkey.or")}</p>
      <StepAlert answer={answer ?? undefined} />
      <fetcher.Form method="post" action="/login" ref={formRef} onSubmit={(e) => e.preventDefault()}>
        <AuthenticityTokenInput />
        <HiddenHoneypot />
        <input type="hidden" name="intent" value="passkey" />
        <input type="hidden" name="userType" value={userType} />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <input type="hidden" name="response" ref={responseRef} defaultValue="" />
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void signInWithPasskey()}
          aria-disabled={waiting || undefined}
        >
          {waiting ? t("login.passkey.waiting") : t("login.passkey.button")}
        </button>
      </fetcher.Form>
    </div>
  );
}

/**
 * The autofill's ceremony waits quietly for the user to pick a passkey in the username field.
 * Started once per page view (the latest `finish` is read through a ref), never after a failure.
 */
function useAutofillCeremony(
  supported: boolean,
  nextOptions: () => Promise<PublicKeyCredentialRequestOptionsJSON>,
  finish: (response: unknown) => void,
  setAnswer: (answer: Answer) => void,
) {
  const finishRef = useRef(finish);
  finishRef.current = finish;
  useEffect(() => {
    // The form (its CSRF token and honeypot) is rendered once passkeys are known to be supported.
    if (!supported) return;
    let live = true;
    void (async () => {
      if (!(await autofillSupported())) return;
      try {
        const optionsJSON = await nextOptions();
        const { startAuthentication } = await loadWebAuthn();
        if (!live) return;
        const response = await startAuthentication({ optionsJSON, useBrowserAutofill: true });
        if (live) finishRef.current(response);
      } catch (error) {
        // Replaced by the button's ceremony, or the page left: nothing to say. Anything else is.
        if (live && ceremonyProblemOf(error) !== "cancelled") setAnswer(problemAnswer(error));
      }
    })();
    return () => {
      live = false;
      void loadWebAuthn().then(({ WebAuthnAbortService }) => WebAuthnAbortService.cancelCeremony());
    };
  }, [supported, nextOptions, setAnswer]);
}

/** The anonymous form's honeypot, without the visible trap's second label and id. */
function HiddenHoneypot() {
  const honeypot = useShellData()?.honeypotInputProps;
  if (!honeypot) return null;
  return (
    <>
      <input type="hidden" name={honeypot.nameFieldName} value="" />
      {honeypot.validFromFieldName ? (
        <input type="hidden" name={honeypot.validFromFieldName} value={honeypot.encryptedValidFrom} />
      ) : null}
    </>
  );
}
