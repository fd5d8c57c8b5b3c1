// The service's published response shapes, written by hand from service-facts.md and a reading
// of the published contract (2026-02-18 and 2026-02-19.preview), held STRICTLY: required fields,
// enums, patterns, integer bounds, and no field the contract does not declare. They judge the
// mock; the SDK's own response schemas stay tolerant on purpose (unknown fields and values pass).
import * as z from 'zod/mini';

const str = z.string();
const int = z.int();
const nonNegative = z.int().check(z.minimum(0));
const nullable = <T extends z.ZodMiniType>(type: T) => z.nullable(type);
const optional = <T extends z.ZodMiniType>(type: T) => z.optional(type);

export const PAYMENT_STATUS = z.enum([
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'expired',
  'cancelled',
]);
const LIST_STATUS_2026_02_18 = z.enum([
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'expired',
]);
const MERCHANT_STATUS = z.enum(['active', 'inactive', 'suspended']);
const CAIP19 = /^[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32}\/[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,128}$/;
const CAIP10 = /^[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32}:[-a-zA-Z0-9]{1,128}$/;
const bounded = (pattern: RegExp) =>
  z.string().check(z.minLength(1), z.maxLength(256), z.regex(pattern));

// --- errors -------------------------------------------------------------------------------------

/** The 35 codes of the payment operations' shared list (any of them under any declared status). */
const SHARED_CODES = z.enum([
  'rate_limited',
  'invalid_params',
  'params_validation',
  'payment_not_found',
  'idempotency_conflict',
  'internal_error',
  'invalid_api_key',
  'unauthorized',
  'forbidden',
  'invalid_state',
  'payment_expired',
  'quote_expired',
  'missing_api_key',
  'missing_merchant_api_key',
  'missing_merchant_id',
  'header_not_ascii',
  'not_sandbox_api_key',
  'merchant_not_found',
  'merchant_exists',
  'api_key_not_found',
  'partner_not_found',
  'customer_not_found',
  'wallet_not_found',
  'executor_not_found',
  'missing_app_id',
  'missing_client_id',
  'invalid_app_id',
  'conflicting_auth_headers',
  'missing_auth_headers',
  'invalid_api_version',
  'unknown_api_version',
  'api_version_downgrade',
  'sanctioned_user',
  'payment_not_succeeded',
  'already_refunded',
]);

const issues = z.array(z.strictObject({ field: str, message: str }));
const details = z.record(z.string(), z.unknown());

/** `ErrorResponse` of the payment operations: `{ code, message }`, code from the shared list. */
const sharedError = z.object({ code: SHARED_CODES, message: str });

/** A merchant-API error of one status: `{ code, message, details?, issues? }` (issues on 400). */
function merchantError(codes: readonly [string, ...string[]], status: number) {
  return z.strictObject({
    code: z.enum(codes),
    message: str,
    details: optional(details),
    ...(status === 400 ? { issues: optional(issues) } : {}),
  });
}

const AUTH_401 = ['missing_api_key', 'invalid_api_key'] as const;
/** What the service's own failures answer, on every route that names them. */
const SERVER_5XX = { 500: ['internal_error'], 502: ['bad_gateway'] } as const;
const AUTH_401_MERCHANT = ['missing_api_key', 'invalid_api_key', 'missing_merchant_id'] as const;
const VERSION_400 = [
  'invalid_api_version',
  'unknown_api_version',
  'api_version_downgrade',
] as const;

/** The errors of the two replacement lists: they differ only in what a 401 may say. */
function listErrors(auth401: readonly [string, ...string[]]) {
  return merchantErrors({
    400: ['invalid_params', 'params_validation', ...VERSION_400],
    401: auth401,
    ...SERVER_5XX,
  });
}

/** What a cancel answers, on the merchant's route and the buyer's alike. */
const cancellationShape = z.strictObject({
  paymentId: str,
  status: PAYMENT_STATUS,
  cancelledReason: str,
  cancelledAt: str,
});

// --- successes ----------------------------------------------------------------------------------

const merchantCore = {
  id: str,
  name: str,
  email: nullable(str),
  status: MERCHANT_STATUS,
  createdAt: str,
};
const cryptoItem = z.strictObject({ id: str, asset: str, destination: str });
const fiatItem = z.strictObject({ id: str, status: str, bankType: str });
const settlementLists = z.strictObject({ crypto: z.array(cryptoItem), fiat: z.array(fiatItem) });
const createdSettlement = z.strictObject({
  id: str,
  asset: bounded(CAIP19),
  destination: bounded(CAIP10),
});

const amountDisplay = z.strictObject({
  assetName: str,
  assetSymbol: str,
  decimals: nonNegative,
  iconUrl: optional(nullable(str)),
  networkIconUrl: optional(nullable(str)),
  networkName: optional(nullable(str)),
});
const amount = z.strictObject({ unit: str, value: str, display: amountDisplay });
const paymentInformation = z.strictObject({ txId: str, optionAmount: amount });
const outcome = {
  failureCode: optional(nullable(z.enum(['declined_user']))),
  info: optional(nullable(paymentInformation)),
};

const fiatAmount = z.strictObject({
  unit: z.string().check(z.regex(/^iso4217\//)),
  value: str,
  display: z.strictObject({ assetSymbol: str, assetName: str, decimals: int }),
});
const tokenAmount = z.strictObject({
  unit: z.string().check(z.regex(/^caip19\//)),
  value: str,
  display: nullable(
    z.strictObject({
      assetSymbol: str,
      assetName: str,
      decimals: int,
      iconUrl: optional(str),
      networkName: optional(str),
      networkIconUrl: optional(str),
    }),
  ),
});

function listItem(status: z.ZodMiniType) {
  return z.strictObject({
    paymentId: str,
    merchant: z.strictObject({ id: str, name: optional(str), iconUrl: optional(nullable(str)) }),
    referenceId: str,
    status,
    isTerminal: z.boolean(),
    fiatAmount: optional(fiatAmount),
    tokenAmount: optional(tokenAmount),
    buyer: optional(
      z.strictObject({
        accountCaip10: str,
        accountProviderName: optional(str),
        accountProviderIcon: optional(str),
      }),
    ),
    transaction: optional(
      z.strictObject({ networkId: str, hash: optional(str), nonce: optional(int) }),
    ),
    fees: optional(
      z.strictObject({
        total: z.union([fiatAmount, tokenAmount]),
        fixed: optional(z.union([fiatAmount, tokenAmount])),
        percentage: optional(str),
      }),
    ),
    settlement: optional(
      z.strictObject({
        settled: z.boolean(),
        amount: optional(z.union([fiatAmount, tokenAmount])),
        txHash: optional(str),
      }),
    ),
    createdAt: str,
    lastUpdatedAt: str,
    settledAt: optional(str),
  });
}

function paymentsPage(status: z.ZodMiniType) {
  return z.strictObject({
    data: z.array(listItem(status)),
    nextCursor: nullable(str),
    stats: z.strictObject({
      totalRevenue: z.array(z.strictObject({ amount: z.number(), currency: str })),
      totalTransactions: int,
      totalCustomers: int,
    }),
  });
}

const int32 = z.int().check(z.minimum(-2_147_483_648), z.maximum(2_147_483_647));
const uint31 = z.int().check(z.minimum(0), z.maximum(2_147_483_647));
const orNull = nullable(str);
const legacyPage = z.strictObject({
  data: z.array(
    z.strictObject({
      payment_id: str,
      merchant_id: str,
      reference_id: str,
      status: LIST_STATUS_2026_02_18,
      is_terminal: z.boolean(),
      wallet_name: str,
      token_symbol: orNull,
      token_decimals: nullable(int),
      token_logo: orNull,
      chain_logo: orNull,
      wallet_logo: orNull,
      chain_id: optional(orNull),
      buyer_caip10: optional(orNull),
      token_caip19: optional(orNull),
      tx_hash: optional(orNull),
      nonce: optional(nullable(uint31)),
      token_amount: optional(orNull),
      fiat_amount: optional(nullable(int32)),
      fiat_currency: optional(orNull),
      created_at: optional(orNull),
      last_updated_at: optional(orNull),
      settled_at: optional(orNull),
      settlement_status: optional(orNull),
      settlement_tx_hash: optional(orNull),
    }),
  ),
  next_cursor: optional(orNull),
  stats: z.strictObject({
    total_customers: uint31,
    total_revenue: z.strictObject({ amount: z.number(), currency: str }),
    total_transactions: uint31,
  }),
});

const gatewayView = z.strictObject({
  status: PAYMENT_STATUS,
  expiresAt: nonNegative,
  amount,
  buyer: optional(
    nullable(
      z.strictObject({
        accountCaip10: str,
        accountProviderName: str,
        accountProviderIcon: optional(nullable(str)),
      }),
    ),
  ),
  merchant: z.strictObject({ name: str, iconUrl: optional(nullable(str)) }),
});

/** `Action`: a wallet RPC to run, or a payload `fetch` builds into wallet RPCs. */
const action = z.union([
  z.strictObject({
    type: z.literal('walletRpc'),
    data: z.strictObject({ chain_id: str, method: str, params: z.array(z.unknown()) }),
  }),
  z.strictObject({ type: z.literal('build'), data: z.strictObject({ data: str }) }),
]);
const collectData = z.strictObject({
  fields: z.array(
    z.strictObject({
      id: str,
      name: str,
      required: z.boolean(),
      type: z.enum(['text', 'date', 'checkbox']),
    }),
  ),
  schema: z.unknown(),
  url: str,
});
const paymentOption = z.strictObject({
  id: str.check(z.maxLength(65_536)),
  account: str,
  amount,
  etaS: nonNegative,
  expiresAt: optional(nullable(nonNegative)),
  actions: z.array(action),
  collectData: optional(nullable(collectData)),
});

const statusResult = z.strictObject({
  status: PAYMENT_STATUS,
  isFinal: z.boolean(),
  pollInMs: optional(nullable(nonNegative)),
  ...outcome,
});

// --- operations ---------------------------------------------------------------------------------

/** One operation of the contract: its success status and shape, and its error shapes by status. */
export interface OperationShape {
  success: { status: number; shape: z.ZodMiniType | ((version?: string) => z.ZodMiniType) };
  errors: Record<number, z.ZodMiniType>;
}

const merchantErrors = (byStatus: Record<number, readonly [string, ...string[]]>) =>
  Object.fromEntries(
    Object.entries(byStatus).map(([status, codes]) => [
      Number(status),
      merchantError(codes, Number(status)),
    ]),
  );
const sharedErrors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, sharedError]));
/** Both replacement lists: `cancelled` is a list status from 2026-02-19.preview on. */
const listShape = (version?: string) =>
  paymentsPage(version === '2026-02-18' ? LIST_STATUS_2026_02_18 : PAYMENT_STATUS);

/** A payment's status read and its cancel answer alike on the partner and the gateway paths. */
const statusRead: OperationShape = {
  success: { status: 200, shape: statusResult },
  errors: sharedErrors(400, 401, 404, 500),
};
const cancellation: OperationShape = {
  success: { status: 200, shape: cancellationShape },
  errors: sharedErrors(400, 401, 404, 500),
};

export const OPERATIONS = {
  'POST /v1/merchants': {
    success: { status: 201, shape: z.strictObject({ merchant: z.strictObject(merchantCore) }) },
    errors: merchantErrors({
      400: ['params_validation', 'missing_idempotency_key'],
      401: AUTH_401,
      409: ['idempotency_conflict'],
      ...SERVER_5XX,
    }),
  },
  'GET /v1/merchants': {
    success: {
      status: 200,
      shape: z.strictObject({
        merchants: z.array(z.strictObject({ ...merchantCore, iconUrl: nullable(str) })),
        totalCount: int,
        nextCursor: nullable(str),
      }),
    },
    errors: merchantErrors({ 400: ['params_validation', 'invalid_params'], 401: AUTH_401 }),
  },
  'GET /v1/merchants/{merchantId}': {
    success: {
      status: 200,
      shape: z.strictObject({
        merchant: z.strictObject({
          ...merchantCore,
          iconUrl: nullable(str),
          settlements: settlementLists,
        }),
      }),
    },
    errors: merchantErrors({ 401: AUTH_401, 404: ['not_found'] }),
  },
  'PATCH /v1/merchants/{merchantId}': {
    success: {
      status: 200,
      shape: z.strictObject({
        merchant: z.strictObject({ ...merchantCore, iconUrl: nullable(str) }),
      }),
    },
    errors: merchantErrors({ 400: ['params_validation'], 401: AUTH_401, 404: ['not_found'] }),
  },
  'DELETE /v1/merchants/{merchantId}': {
    success: { status: 200, shape: z.strictObject({ id: str, deleted: z.boolean() }) },
    errors: merchantErrors({ 401: AUTH_401, 404: ['not_found'] }),
  },
  'GET /v1/merchants/{merchantId}/settlements': {
    success: {
      status: 200,
      shape: z.strictObject({ fiat: z.array(fiatItem), crypto: z.array(cryptoItem) }),
    },
    errors: merchantErrors({ 401: AUTH_401, 404: ['not_found'] }),
  },
  'POST /v1/merchants/{merchantId}/settlements/crypto': {
    success: {
      status: 201,
      shape: z.strictObject({ settlements: z.array(createdSettlement) }),
    },
    errors: merchantErrors({
      400: ['params_validation', 'invalid_params', 'missing_idempotency_key'],
      401: AUTH_401,
      404: ['not_found'],
      409: ['idempotency_conflict', 'settlement_asset_conflict'],
    }),
  },
  // The contract declares no 401 on these two (silent): the mock answers the merchant API's.
  'PUT /v1/merchants/{merchantId}/settlements/crypto/{id}': {
    success: { status: 200, shape: createdSettlement },
    errors: merchantErrors({
      400: ['params_validation', 'invalid_params'],
      401: AUTH_401,
      404: ['not_found'],
    }),
  },
  'DELETE /v1/merchants/{merchantId}/settlements/crypto/{id}': {
    success: { status: 200, shape: z.strictObject({ id: str, deleted: z.boolean() }) },
    errors: merchantErrors({ 401: AUTH_401, 404: ['not_found'] }),
  },
  'GET /v1/merchants/{merchant_id}/payments': {
    success: { status: 200, shape: legacyPage },
    errors: merchantErrors({
      400: ['invalid_params', 'params_validation'],
      401: AUTH_401,
      ...SERVER_5XX,
    }),
  },
  'GET /v1/merchants/payments': {
    success: { status: 200, shape: listShape },
    errors: listErrors(AUTH_401_MERCHANT),
  },
  'GET /v1/payments': { success: { status: 200, shape: listShape }, errors: listErrors(AUTH_401) },
  'POST /v1/refunds': {
    success: { status: 200, shape: z.strictObject({ paymentId: str }) },
    errors: merchantErrors({
      400: ['params_validation', 'payment_not_succeeded', ...VERSION_400],
      401: AUTH_401_MERCHANT,
      404: ['not_found'],
      409: ['already_refunded'],
      ...SERVER_5XX,
    }),
  },
  'POST /v1/payments': {
    success: {
      status: 201,
      shape: z.strictObject({
        paymentId: str,
        status: PAYMENT_STATUS,
        expiresAt: nonNegative,
        isFinal: z.boolean(),
        gatewayUrl: str,
        pollInMs: optional(nullable(nonNegative)),
      }),
    },
    errors: sharedErrors(400, 401, 500),
  },
  'GET /v1/gateway/payment/{id}': {
    success: { status: 200, shape: gatewayView },
    errors: sharedErrors(400, 401, 404, 500),
  },
  'GET /v1/gateway/payment/{id}/status': statusRead,
  // The buyer's half (published contract 2026-02-18, tag Gateway).
  'POST /v1/gateway/payment/{id}/options': {
    success: {
      status: 200,
      shape: z.strictObject({
        options: optional(nullable(z.array(paymentOption))),
        info: optional(nullable(gatewayView)),
        collectData: optional(nullable(collectData)),
      }),
    },
    errors: sharedErrors(400, 401, 404, 500),
  },
  'POST /v1/gateway/payment/{id}/fetch': {
    success: { status: 200, shape: z.strictObject({ actions: z.array(action) }) },
    errors: sharedErrors(400, 401, 404, 500),
  },
  'POST /v1/gateway/payment/{id}/confirm': {
    success: {
      status: 200,
      shape: z.strictObject({
        status: PAYMENT_STATUS,
        isFinal: z.boolean(),
        pollInMs: optional(nullable(nonNegative)),
        info: optional(nullable(paymentInformation)),
      }),
    },
    errors: sharedErrors(400, 401, 404, 500),
  },
  'POST /v1/gateway/payment/{id}/cancel': cancellation,
  'GET /v1/payments/{id}': {
    success: {
      status: 200,
      shape: z.strictObject({
        status: PAYMENT_STATUS,
        referenceId: str,
        ...outcome,
        settlement: optional(
          nullable(
            z.strictObject({
              successful: optional(
                nullable(z.strictObject({ txId: str, amount: z.strictObject({ unit: str }) })),
              ),
            }),
          ),
        ),
      }),
    },
    errors: sharedErrors(400, 401, 404, 500),
  },
  'GET /v1/payments/{id}/status': statusRead,
  'POST /v1/payments/{id}/cancel': cancellation,
} satisfies Record<string, OperationShape>;

export type OperationName = keyof typeof OPERATIONS;

/**
 * Answers outside any operation's declared statuses that the mock sends on purpose, each held to
 * the service's generic error shape: 413 past the body bound (the SDK contract's), 404 and 405
 * for paths and methods outside the interface.
 */
export const GENERIC_ERROR = z.strictObject({
  code: str,
  message: str,
  details: optional(details),
});

/**
 * Any answer under `/v1/gateway/` that is an error, whatever its status (an unknown route, a 405,
 * a 413): the gateway's strict clients read every one as `ErrorResponse`, code from the enum.
 */
export const GATEWAY_ERROR = sharedError;

/**
 * The issues a strict shape finds in an answer of `operation` (empty when it conforms). An
 * undeclared status is itself an issue.
 */
export function contractIssues(
  operation: OperationName,
  status: number,
  body: unknown,
  version?: string,
): string[] {
  const spec: OperationShape = OPERATIONS[operation];
  let shape: z.ZodMiniType | undefined;
  if (status === spec.success.status) {
    const { shape: success } = spec.success;
    shape = typeof success === 'function' ? success(version) : success;
  } else {
    shape = spec.errors[status];
  }
  if (!shape) return [`${operation}: status ${status} is not declared`];
  const result = z.safeParse(shape, body);
  return result.success
    ? []
    : result.error.issues.map(
        (issue) => `${operation} ${status}: ${issue.path.join('.') || '(body)'} ${issue.message}`,
      );
}
