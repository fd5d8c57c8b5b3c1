/** A result together with the HTTP response it came from. */
export interface WithResponse<T> {
  data: T;
  /** The raw response. Its body has already been read. */
  response: Response;
  /** From the `x-request-id` response header, when the service sent one. */
  requestId?: string;
}

/**
 * A Promise of the parsed result that can also give the raw response:
 * `const { data, response, requestId } = await gateway.merchants.get(id).withResponse();`
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #raw: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(raw: Promise<WithResponse<T>>) {
    // The base promise is never used; every reader goes through `#raw`.
    super((resolve) => resolve(undefined as T));
    this.#raw = raw;
  }

  /** @internal Derived promises (`.then(...)`) are plain Promises, not ApiPromises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The parsed result, the raw `Response` and the request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#raw.then((result) => result.data);
    return this.#data;
  }

  // The signatures are lib.es5's own, `any` reason included: with `unknown` there,
  // `.catch((e: Error) => …)`, which compiles on any Promise, would not compile on an ApiPromise.
  // biome-ignore lint/suspicious/noThenProperty: an ApiPromise is a Promise; then is its contract
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: lib.es5's Promise types the reason `any`
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  override catch<R = never>(
    // biome-ignore lint/suspicious/noExplicitAny: lib.es5's Promise types the reason `any`
    onrejected?: ((reason: any) => R | PromiseLike<R>) | null,
  ): Promise<T | R> {
    return this.#parsed().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}
