import { merchantIdProblem } from '../schemas/payments';
import { RequestValidationError, type ValidationIssue } from './errors/base';

/**
 * The one place a merchant id is resolved and checked, for every call that sends `Merchant-Id`
 * and every follow that reads the merchant side. It lives in core, the floor below both the
 * resources and the follow room, because both read it.
 */

/** The issue of a merchant id that breaks the rule (1 to 255 visible ASCII characters), if any. */
export function merchantIdIssue(
  value: unknown,
  field = 'merchantId',
  whose?: string,
): ValidationIssue | undefined {
  const problem = merchantIdProblem(value);
  if (problem === undefined) return undefined;
  return { field, message: whose === undefined ? problem : `${problem} (${whose})` };
}

/**
 * The merchant a call is for: `given`, else the client's `fallback`, with the issue when it is
 * missing or breaks the rule. `where` says how a caller passes it ("in the call", "with the
 * payment"), for the message.
 */
export function merchantIdOf(
  given: unknown,
  fallback: string | undefined,
  where = 'in the call',
): { merchantId: string; issue?: undefined } | { merchantId?: undefined; issue: ValidationIssue } {
  const id = given ?? fallback;
  if (id === undefined || id === '') {
    return {
      issue: {
        field: 'merchantId',
        message: `is required: pass merchantId ${where} or set it on the client`,
      },
    };
  }
  const issue = merchantIdIssue(id, 'merchantId', given === undefined ? "the client's" : undefined);
  return issue ? { issue } : { merchantId: id as string };
}

/**
 * `merchantIdOf` for a call: the merchant id, or a `RequestValidationError` naming `merchantId`
 * (nothing is sent).
 */
export function resolveMerchantId(
  operation: string,
  given: unknown,
  fallback: string | undefined,
  where = 'in the call',
): string {
  const { merchantId, issue } = merchantIdOf(given, fallback, where);
  if (issue) throw new RequestValidationError(operation, [issue]);
  return merchantId;
}
