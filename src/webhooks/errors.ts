import { MerchantGatewayError, type ValidationIssue } from '../core/errors/base';
import { clip } from '../core/safety/redact';

/**
 * Why a delivery was refused:
 * - `missing_header`: `webhook-id`, `webhook-timestamp` or `webhook-signature` (or the `svix-*`
 *   set) is absent or empty;
 * - `invalid_signature`: no `v1` entry matches the body signed with any of the secrets;
 * - `timestamp_out_of_range`: `webhook-timestamp` is further from this clock than
 *   `toleranceSeconds`, either way, or is not whole Unix seconds;
 * - `invalid_secret`: no secret was given, or one is not base64 of at least one byte (after
 *   `whsec_`, which may be left out, as the reference libraries allow);
 * - `payload_too_large`: the body is over `maxBodyBytes` (the rest of a `Request`'s is not read);
 * - `invalid_payload`: the body is a parsed object instead of the raw body, a `Request`'s body was
 *   already read or is locked, the body is not JSON, or the event lacks `id`, `type`,
 *   `api_version`, `created_at` or `data` (or, for a documented payment event, a snapshot field
 *   or a stage its type implies).
 */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'invalid_signature'
  | 'timestamp_out_of_range'
  | 'invalid_secret'
  | 'payload_too_large'
  | 'invalid_payload';

/**
 * A webhook delivery that failed verification or parsing: answer it 400 and never act on it (the
 * service retries it). `reason` says what failed; the message says what to fix and never holds
 * the secret, a signature or the body.
 *
 * @example
 * ```ts
 * try {
 *   event = await webhooks.unwrap(body, headers);
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) return new Response(error.reason, { status: 400 });
 *   throw error;
 * }
 * ```
 */
export class WebhookVerificationError extends MerchantGatewayError {
  /** @internal */
  static override readonly '~brand': string = 'WebhookVerificationError';
  override readonly name: string = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;
  /** For `invalid_payload` from a field: each field and what is wrong with it. */
  readonly issues?: ValidationIssue[];

  constructor(
    reason: WebhookVerificationReason,
    message: string,
    options?: { issues?: ValidationIssue[] },
  ) {
    const advice =
      reason === 'invalid_secret'
        ? 'fix the configuration; meanwhile answer 400, so the service delivers it again later'
        : 'answer 400 and do not act on it';
    super(clip(`webhook refused (${reason}): ${message}; ${advice}`));
    this.reason = reason;
    if (options?.issues !== undefined) this.issues = options.issues;
  }
}
