// A module of its own, without the form library: pages that have no Conform form use it too.

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
