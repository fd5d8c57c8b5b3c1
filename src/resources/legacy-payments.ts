import type { ResourceContext } from './resource';

/** @deprecated The path-based list of a merchant's payments. Use `payments.list` instead. */
export class LegacyPayments {
  constructor(_context: ResourceContext) {}
}
