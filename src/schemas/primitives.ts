/**
 * The service's published formats, re-exported from `src/rules/`, where each is defined once for
 * both the SDK and the mock. Kept so schema modules that import from here still build.
 */
export { isIsoDateTime, toWireDateTime } from '../rules/dates';
export { IDEMPOTENCY_KEY_PATTERN, isSafeHeaderValue } from '../rules/headers';
export { CAIP2_PATTERN, REFERENCE_FILTER_PATTERN } from '../rules/lists';
export { EMAIL_PATTERN, isHttpsUrl } from '../rules/merchants';
export { FIAT_UNIT_PATTERN, MINOR_UNITS_PATTERN } from '../rules/payments';
export { CAIP10_PATTERN, CAIP19_PATTERN } from '../rules/settlements';
