import { Form } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { clearLeaveWarning } from "~/components/leave-warning";
import { useModalOnMount } from "~/components/modal-dialog";

/**
 * spec 000 §2 "Log out menu item": 'Changes you have made will not be saved. Are you sure you want
 * to log out?' (docs/decisions/096). Loaded only when a page in progress asks for it, so no first
 * load carries it.
 */
export default function LogoutDialog({ loggingOut, onClosed }: { loggingOut: boolean; onClosed: () => void }) {
  const { t } = useTranslation();
  const ref = useModalOnMount();
  return (
    <dialog
      ref={ref}
      className="logout-dialog"
      aria-labelledby="logout-dialog-heading"
      aria-describedby="logout-dialog-text"
      onClose={onClosed}
    >
      <h2 id="logout-dialog-heading" className="logout-dialog__title">
        {t("nav.logoutConfirm.title")}
      </h2>
      <p id="logout-dialog-text">{t("nav.logoutConfirm.text")}</p>
      {/* the user confirmed: the review's leave-the-page warning must not ask again */}
      <Form method="post" action="/logout" className="button-group" onSubmit={() => clearLeaveWarning()}>
        <AuthenticityTokenInput />
        <input type="hidden" name="confirm" value="review" />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className="button" disabled={loggingOut} data-no-heartbeat>
          {loggingOut ? t("nav.loggingOut") : t("nav.logoutConfirm.confirm")}
        </button>
        <button type="button" className="button button--secondary" onClick={() => ref.current?.close()}>
          {t("nav.logoutConfirm.cancel")}
        </button>
      </Form>
    </dialog>
  );
}
