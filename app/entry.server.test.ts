import { describe, expect, it, vi } from "vitest";
import { handleError } from "./entry.server";
import { logger } from "./runtime/logger.server";

// docs/decisions/112: a refusal is the caller's doing (a warning), a fault the portal's (an error).

describe("handleError (entry.server)", () => {
  const args = (method: string) => ({
    request: new Request("http://portal.test/healthz", { method }),
    params: {},
    context: {},
  });

  it("logs Remix's own refusals (a post to an address without a form) as a warning, not an error", () => {
    const warn = vi.spyOn(logger, "warn");
    const error = vi.spyOn(logger, "error");
    // what the router throws for it (isRouteErrorResponse's shape)
    handleError({ status: 405, statusText: "Method Not Allowed", internal: true, data: null }, args("POST"));
    expect(warn).toHaveBeenCalledWith("request refused", { method: "POST", url: "/healthz", status: 405 });
    expect(error).not.toHaveBeenCalled();
  });

  it("logs a fault as an error", () => {
    const warn = vi.spyOn(logger, "warn");
    const error = vi.spyOn(logger, "error");
    handleError(new Error("boom"), args("GET"));
    expect(error).toHaveBeenCalledWith("request failed", expect.objectContaining({ url: "/healthz" }));
    expect(warn).not.toHaveBeenCalled();
  });
});
