// The one option of the compression middleware that scripts/portal-server.mjs sets (its package
// ships no types and @types/compression is not installed): the zlib level (docs/decisions/124).
declare module "compression" {
  import type { RequestHandler } from "express";

  export default function compression(options?: { level?: number }): RequestHandler;
}
