// A module of its own, without the form library: pages that have no Conform form use it too.
import type { ReactNode } from "react";

/**
 * Why a button the spec disables is disabled (issue 25 item 10), beside it while it is: the button
 * points at it with `aria-describedby={reason ? id : undefined}`. `reason` is null while the button
 * is enabled, and without JavaScript, where nothing is disabled.
 */
export function DisabledReason({ id, reason }: { id: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <p id={id} className="button-reason">
      {reason}
    </p>
  );
}

/**
 * The submit button that goes with a `DisabledReason` of the same `reasonId` and `reason`: disabled
 * exactly while there is a reason (or while the form is `pending`), and described by the reason then.
 */
export function SubmitWithReason({
  reasonId,
  reason,
  pending,
  ...button
}: {
  reasonId: string;
  reason: string | null;
  pending?: boolean;
  /** The button's `intent`, for a form with several actions. */
  name?: string;
  value?: string;
  children: ReactNode;
}) {
  return (
    <button
      {...button}
      type="submit"
      className="button"
      disabled={!!reason || pending}
      aria-describedby={reason ? reasonId : undefined}
    />
  );
}
