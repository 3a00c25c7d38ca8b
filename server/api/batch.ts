import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { ApiError, errorBody, validate } from "./http";
import type { Caller } from "../sessions";
import type { ApiRequest, ApiResponse, HandlerContext } from "./router";
import { json, open, queryOf, type Route } from "./router";

export const MAX_BATCH_ITEMS = 100;

const BatchBody = z.object({
  batch: z
    .array(
      z.object({
        name: z.string().min(1).max(200),
        method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
        url: z.string().min(1).max(2000),
        body: z.unknown().optional(),
        omit_results_on_success: z.boolean().optional(),
      }),
    )
    .max(MAX_BATCH_ITEMS, `A batch holds at most ${MAX_BATCH_ITEMS} items`),
});

type BatchItem = z.output<typeof BatchBody>["batch"][number];

/** The item's URL, relative to /resourceful/, as a request of this platform (never outside it). */
function itemRequest(item: BatchItem, parent: ApiRequest, caller: Caller | null | undefined): ApiRequest {
  const url = new URL(item.url.replace(/^\/+/, ""), "http://platform/resourceful/");
  if (!url.pathname.startsWith("/resourceful/") || url.pathname.replace(/\/+$/, "") === "/resourceful") {
    throw new ApiError(400, `Batch item url must be a resource under /resourceful/: ${item.url}`);
  }
  return {
    method: item.method,
    path: url.pathname,
    params: {},
    query: queryOf(url),
    body: item.body,
    token: parent.token,
    client: parent.client,
    // inside a batch a missing session is an item's 401, never a redirect
    authFailureAsError: true,
    batchCaller: caller,
  };
}

async function runItem(
  item: BatchItem,
  parent: ApiRequest,
  context: HandlerContext,
  caller: Caller | null | undefined,
) {
  let answer: ApiResponse;
  try {
    answer = await context.dispatch(itemRequest(item, parent, caller));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    answer = { status: error.status, body: errorBody(error) };
  }
  const success = answer.status >= 200 && answer.status < 300;
  const omit = success && item.omit_results_on_success === true;
  const hasBody = answer.body !== undefined && !omit;
  // a raw answer (HTML, file bytes) travels as its text, binary as base64
  const raw =
    omit || answer.raw === undefined
      ? undefined
      : typeof answer.raw === "string"
        ? answer.raw
        : answer.raw.toString("base64");
  return {
    name: item.name,
    code: answer.status,
    msg: STATUS_CODES[answer.status] ?? "",
    body: hasBody ? JSON.stringify(answer.body) : (raw ?? ""),
    headers: { ...(hasBody ? { "Content-Type": "application/json" } : {}), ...answer.headers },
  };
}

// design: the batch endpoint; items run in order with the caller's session
export const batchRoutes: Route[] = [
  open("POST", "/resourceful", async (request, context) => {
    const { batch } = validate(BatchBody, request.body, "body");
    const results = [];
    // The batch's own call found the caller and refreshed the session: reading items use it as is.
    // Once an item writes (it may sign out, or change the session's client), the items after it
    // look the session up again, as a call of their own would.
    let caller: Caller | null | undefined = context.caller;
    for (const item of batch) {
      if (item.method !== "GET") caller = undefined;
      results.push(await runItem(item, request, context, caller));
    }
    return json(results);
  }),
];
