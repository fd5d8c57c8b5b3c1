import { ApiPromise } from './api-promise';
import { PaginationError, RequestValidationError } from './errors/base';

/** How a {@link PagePromise} reads and fetches the pages of one list. */
export interface PageSource<Item, Page> {
  /** Sends one request for the page after `cursor` (undefined: the list's first page). */
  fetch(cursor: string | undefined): ApiPromise<Page>;
  /** The items of one page. */
  items(page: Page): readonly Item[];
  /** The cursor of the page after this one; null, undefined or empty when this is the last. */
  nextCursor(page: Page): string | null | undefined;
  /** The cursor the caller started from, if any: the service handing it back would be a loop. */
  startCursor?: string | undefined;
  /** Names the method in errors, e.g. `payments.list`. */
  operation: string;
  /** Scrubs the client's keys from text an error shows: a cursor is the service's to choose. */
  redact?: (text: string) => string;
}

/** Options of {@link PagePromise.toArray}. */
export interface ToArrayOptions {
  /** The most items to collect: a positive integer. Pages stop being fetched once it is reached. */
  limit: number;
}

/**
 * The result of a list call: a Promise of the first page that can also walk every item of every
 * page. Each next page is fetched only once the previous one has been consumed, so memory stays at
 * one page, and breaking out of a loop stops fetching. A walk ends at a page whose cursor is null,
 * absent or empty, or at an empty page; a cursor seen before in the same walk is a `PaginationError`.
 *
 * @example
 * ```ts
 * const first = await gateway.payments.list({ limit: 50 });   // items, nextCursor, stats
 * for await (const payment of gateway.payments.list({ status: 'succeeded' })) {
 *   console.log(payment.paymentId);
 * }
 * const recent = await gateway.payments.list().toArray({ limit: 500 });
 * ```
 */
export class PagePromise<Item, Page> extends ApiPromise<Page> implements AsyncIterable<Item> {
  readonly #first: ApiPromise<Page>;
  readonly #source: PageSource<Item, Page>;

  /** @internal Built by the list methods; not meant to be constructed by callers. */
  constructor(source: PageSource<Item, Page>) {
    const first = source.fetch(undefined);
    super(first.withResponse());
    this.#first = first;
    this.#source = source;
  }

  /**
   * Every page, the first one included, fetching the next only when asked for it.
   * @throws {PaginationError} when the service returns a cursor already seen in this walk.
   */
  async *pages(): AsyncGenerator<Page, void, undefined> {
    const source = this.#source;
    const seen = new Set<string>();
    if (source.startCursor) seen.add(source.startCursor);
    // The first page is the one already requested; every later page is a new request.
    let page = await this.#first;
    for (;;) {
      yield page;
      const cursor = source.nextCursor(page);
      if (!cursor || source.items(page).length === 0) return;
      if (seen.has(cursor)) {
        const shown = source.redact ? source.redact(cursor) : cursor;
        throw new PaginationError(
          `${source.operation}: the service returned cursor ${JSON.stringify(shown)} a second time; stopped instead of looping`,
          shown,
        );
      }
      seen.add(cursor);
      page = await source.fetch(cursor);
    }
  }

  /** Every item of every page, in the service's order. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* this.#source.items(page);
  }

  /**
   * Collects items, at most `limit` of them, fetching no page beyond the one that reaches it.
   * @throws {RequestValidationError} when `limit` is not a positive integer.
   * @throws {PaginationError} when the service returns a cursor already seen.
   */
  async toArray(options: ToArrayOptions): Promise<Item[]> {
    const limit = options?.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
      // The caller gets this error instead; the first page's own outcome no longer matters.
      this.#first.catch(() => {});
      throw new RequestValidationError(`${this.#source.operation}.toArray`, [
        { field: 'limit', message: 'must be a positive integer' },
      ]);
    }
    const items: Item[] = [];
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
