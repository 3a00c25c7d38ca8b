// A page's reads sent together (docs/decisions/196): the planning client's GETs and batches of GETs
// that a loader starts at the same moment go to the platform as one batch, each answering its
// caller as it would have alone. DataLoader collects what is asked within one turn of the event
// loop; a read alone still goes as itself.
import DataLoader from "dataloader";
import type { z } from "zod/v4";
import {
  type BatchItems,
  buildUrl,
  type CallOptions,
  isLostSession,
  type PlanningClient,
  PlanningError,
  type Settled,
} from "./client.server";

/** A read: its URL relative to the platform's resources (`resourceful/`), as batch items name them. */
type Read = { url: string; schema: z.ZodType };

const RESOURCES = "resourceful/";

/** The platform's limit on a batch's items (server/api/batch.ts MAX_BATCH_ITEMS). */
const MAX_ITEMS = 100;

/** One item's own failure within a round trip that was answered (the round trip's own failure rejects every item). */
class ItemFailure extends Error {
  constructor(readonly failure: PlanningError) {
    super(failure.message);
  }
}

/** The path and query of a resource's read, relative to the resources, as a batch item names it; null for anything else. */
function resourceUrl(path: string, query: CallOptions["query"]): string | null {
  const url = new URL(buildUrl("http://platform", path, query));
  const relative = `${url.pathname.slice(1)}${url.search}`;
  return relative.startsWith(RESOURCES) && relative.length > RESOURCES.length ? relative.slice(RESOURCES.length) : null;
}

/** A failure as its caller would have met it alone: an item's own, or the round trip's. */
function unwrapped(error: unknown): unknown {
  return error instanceof ItemFailure ? error.failure : error;
}

function isGetOnly(items: BatchItems): boolean {
  return Object.values(items).every((item) => (item.method ?? "GET") === "GET");
}

/**
 * The client with its reads collected: `get` (unless `retry: false`), and `batch` and
 * `batchSettled` of GETs, started within one turn, go in one round trip; anything else goes as
 * before. Make one for a request's loader, never share one between users (it holds their session).
 */
export function batchingClient(planning: PlanningClient): PlanningClient {
  const reads = new DataLoader<Read, unknown>(
    async (list) => {
      if (list.length === 1) {
        const [read] = list as [Read];
        return [await planning.get(`${RESOURCES}${read.url}`, read.schema).catch((error: unknown) => wrapped(error))];
      }
      const items: BatchItems = {};
      list.forEach((read, index) => (items[`r${index}`] = { url: read.url, schema: read.schema }));
      const answers = await planning.batchSettled(items);
      return list.map((_, index) => {
        const answer = answers[`r${index}`]!;
        return answer.ok ? answer.value : new ItemFailure(answer.error);
      });
    },
    { cache: false, maxBatchSize: MAX_ITEMS },
  );

  /** A read alone that failed: its own failure (a lost session stays the round trip's). */
  function wrapped(error: unknown): unknown {
    if (error instanceof PlanningError && !isLostSession(error)) return new ItemFailure(error);
    throw error;
  }

  const read = (item: { url: string; schema: z.ZodType }) =>
    reads.load({ url: item.url.replace(/^\/+/, ""), schema: item.schema });

  async function batch<T extends BatchItems>(items: T): Promise<{ [K in keyof T]: z.output<T[K]["schema"]> }> {
    if (!isGetOnly(items)) return planning.batch(items);
    const names = Object.keys(items);
    try {
      const values = await Promise.all(names.map((name) => read(items[name]!)));
      return Object.fromEntries(names.map((name, index) => [name, values[index]])) as {
        [K in keyof T]: z.output<T[K]["schema"]>;
      };
    } catch (error) {
      throw unwrapped(error);
    }
  }

  async function batchSettled<T extends BatchItems>(
    items: T,
  ): Promise<{ [K in keyof T]: Settled<z.output<T[K]["schema"]>> }> {
    if (!isGetOnly(items)) return planning.batchSettled(items);
    const names = Object.keys(items);
    const settled = await Promise.all(
      names.map((name) =>
        read(items[name]!).then(
          (value): Settled<unknown> => ({ ok: true, value }),
          (error: unknown): Settled<unknown> => {
            if (error instanceof ItemFailure) return { ok: false, error: error.failure };
            throw error;
          },
        ),
      ),
    );
    return Object.fromEntries(names.map((name, index) => [name, settled[index]])) as {
      [K in keyof T]: Settled<z.output<T[K]["schema"]>>;
    };
  }

  return {
    ...planning,
    batch,
    batchSettled,
    get: async <S extends z.ZodType>(path: string, schema: S, opts?: CallOptions): Promise<z.output<S>> => {
      const url = opts?.retry === false || opts?.body !== undefined ? null : resourceUrl(path, opts?.query);
      if (url === null) return planning.get(path, schema, opts);
      try {
        return (await read({ url, schema })) as z.output<S>;
      } catch (error) {
        throw unwrapped(error);
      }
    },
  };
}
