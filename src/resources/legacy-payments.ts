import type { ResourceContext } from './resource';

/** @deprecated The path-based list of a merchant's payments. Use `payments.list` instead. */
export class LegacyPayments {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }
}
