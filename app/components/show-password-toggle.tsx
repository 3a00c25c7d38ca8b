import { useHydrated } from "~/components/hydrated";

/**
 * A show-password checkbox, offered only when JavaScript runs: without it the box could do nothing.
 * Until then its place is kept by an invisible copy (hidden from assistive technology too), so the
 * box appearing does not push the form's button down under a pointer on its way to it.
 */
export function ShowPasswordToggle({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <div className="checkbox checkbox--reserved" aria-hidden="true">
        <input type="checkbox" disabled tabIndex={-1} />
        <span>{label}</span>
      </div>
    );
  }
  return (
    <div className="checkbox">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
