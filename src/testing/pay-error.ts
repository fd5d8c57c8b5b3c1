/** A payment `mock.pay()` could not make: the service's refusal, as a wallet would read it. */
export class MockPayError extends Error {
  override readonly name = 'MockPayError';
  constructor(
    /** The HTTP status the Gateway API answers with (400, 404). */
    readonly status: number,
    /** The gateway's error code: `payment_not_found`, `invalid_state`, `payment_expired`, … */
    readonly code: string,
    message: string,
  ) {
    super(`mock.pay: ${status} ${code}: ${message}`);
  }
}
