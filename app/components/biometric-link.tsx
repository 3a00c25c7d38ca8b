import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/translation";

/**
 * docs/decisions/101: the security pages always lead to the biometric permission page, which the
 * account menu offers only until the client has a passkey.
 */
export function BiometricLoginLink() {
  const { t } = useTranslation("security");
  return (
    <p className="page__aside">
      {t("biometric.link")} <Link to="/clients/biometric-permission">{t("common:nav.biometricPermission")}</Link>
    </p>
  );
}
