import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseUnit, valueOf } from "./unit-file";

// ASVS 4.0.3 V1.7.2, V7.3.3 (docs/decisions/189): the logs of every component go to journald,
// which keeps them sealed on the host and sends them over HTTPS, with a client certificate, to a
// log store of its own that accepts only the application hosts and seals what it keeps.

const read = (name: string) =>
  parseUnit(readFileSync(new URL(`../../deploy/logging/${name}`, import.meta.url), "utf8"));
const UNITS = new URL("../../deploy/systemd/", import.meta.url);

describe("the logs' way to the log store", () => {
  it("starts in journald, on disk and sealed", () => {
    const journald = read("journald.conf");
    expect(valueOf(journald, "Journal", "Storage")).toBe("persistent");
    expect(valueOf(journald, "Journal", "Seal")).toBe("yes");
  });

  it("every component writes to journald under a name of its own", () => {
    for (const unit of [
      "client-online-portal@.service",
      "client-online-platform.service",
      "client-online-nginx.service",
      "client-online-upstream-check.service",
    ]) {
      const service = parseUnit(readFileSync(new URL(unit, UNITS), "utf8"));
      expect(valueOf(service, "Service", "SyslogIdentifier")).toBe(unit.replace(/@?\.service$/, ""));
      // journald's rate limit would drop lines under load (the platform writes one per call)
      expect(valueOf(service, "Service", "LogRateLimitIntervalSec")).toBe("0");
      // no unit sends its output to a file its own account could change
      expect(valueOf(service, "Service", "StandardOutput") ?? "journal").toBe("journal");
      expect(valueOf(service, "Service", "StandardError") ?? "inherit").toBe("inherit");
    }
  });

  it("is sent over HTTPS with the host's client certificate, and the store's checked", () => {
    const upload = read("journal-upload.conf");
    expect(valueOf(upload, "Upload", "URL")).toMatch(/^https:\/\//);
    for (const key of ["ServerKeyFile", "ServerCertificateFile", "TrustedCertificateFile"]) {
      expect(valueOf(upload, "Upload", key), key).toMatch(/^\/etc\/client-online\/tls\//);
    }
  });

  it("ends in a store that takes only the application hosts' certificates and seals what it keeps", () => {
    const remote = read("journal-remote.conf");
    expect(valueOf(remote, "Remote", "Seal")).toBe("yes");
    expect(valueOf(remote, "Remote", "SplitMode")).toBe("host");
    expect(valueOf(remote, "Remote", "TrustedCertificateFile")).toMatch(/application-hosts-ca\.crt$/);
  });
});
