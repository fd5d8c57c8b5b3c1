import { RequestValidationError, type ValidationIssue } from '../core/errors/base';
import { pathIdProblem } from '../core/http/path';
import { signalProblem } from '../core/http/prepare';
import { ownProperties } from '../core/safety/own-properties';
import type { FollowerTelemetry } from '../core/telemetry/option';
import { MAX_TIMER_MS } from '../core/timers';
import { merchantIdIssue, merchantIdOf } from '../core/validate';
import type { PaymentStatusResult } from '../schemas/payment-status';
import type {
  FollowedPayment,
  FollowerErrorInfo,
  PaymentFollowerCheckpointEntry,
  PaymentFollowerOptions,
} from './types';

/** The operation a follower's reads, errors and log lines name. */
export const OPERATION = 'payments.follower';
/**
 * How much earlier than its `add` a `PaymentCreated` may have been created, by the service's clock:
 * a slow create, and the clocks of this host and the service disagreeing by a few minutes.
 */
export const CREATED_MARGIN_MS = 10 * 60_000;

/** The options once checked, defaults applied. */
export interface FollowerSettings {
  maxHeldReads: number;
  sweepIntervalMs: number;
  timeoutMs: number;
  onError:
    | ((error: Error, paymentId: string | undefined, info: FollowerErrorInfo) => void)
    | undefined;
  signal: AbortSignal | undefined;
  /** telemetry: the follower's payments counter and time-to-final histogram, when on. */
  telemetry?: FollowerTelemetry | undefined;
}

/** A payment to follow, as `add` or a checkpoint gives it, checked. */
export interface Seed {
  paymentId: string;
  merchantId: string;
  /** The status known at the start (a PaymentCreated's, or the checkpoint's last yielded one). */
  known: PaymentStatusResult | undefined;
  createdAt: number | undefined;
  notBefore: number | undefined;
  deadlineAt: number;
}

function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Checks `add`'s input (throws `RequestValidationError` naming the field) and makes its seed. */
export function seedOf(
  clientMerchantId: string | undefined,
  payment: FollowedPayment,
  timeoutMs: number,
  now: number,
): Seed | undefined {
  const operation = 'follower.add';
  let paymentId: unknown;
  let merchantId: unknown;
  let known: PaymentStatusResult | undefined;
  let created = false;
  if (typeof payment === 'string') {
    paymentId = payment;
  } else if (typeof payment === 'object' && payment !== null) {
    const given = ownProperties(payment) as Partial<Record<string, unknown>>;
    ({ paymentId, merchantId } = given);
    if (typeof given.status === 'string' && typeof given.isFinal === 'boolean') {
      // A PaymentCreated: its status is known and not yielded again.
      created = true;
      known = {
        status: given.status,
        isFinal: given.isFinal,
        ...(typeof given.pollInMs === 'number' ? { pollInMs: given.pollInMs } : {}),
      };
    }
  } else {
    throw new RequestValidationError(operation, [
      {
        field: 'payment',
        message:
          'must be a payment id, { paymentId, merchantId? } or the result of payments.create',
      },
    ]);
  }
  const issues: ValidationIssue[] = [];
  const idIssue = pathIdProblem(paymentId);
  if (idIssue) issues.push({ field: 'paymentId', message: idIssue });
  const merchant = merchantIdOf(merchantId, clientMerchantId, 'with the payment');
  if (merchant.issue) issues.push(merchant.issue);
  if (issues.length > 0 || merchant.merchantId === undefined) {
    throw new RequestValidationError(operation, issues);
  }
  // Already final: there is no change left to report.
  if (known?.isFinal === true) return undefined;
  return {
    paymentId: paymentId as string,
    merchantId: merchant.merchantId,
    known,
    createdAt: undefined,
    notBefore: created ? now - CREATED_MARGIN_MS : undefined,
    deadlineAt: now + timeoutMs,
  };
}

function checkpointSeeds(value: unknown, issues: ValidationIssue[]): Seed[] {
  const field = 'resumeFrom';
  const checkpoint = ownProperties(value as object) as Partial<Record<string, unknown>>;
  if (typeof value !== 'object' || value === null || checkpoint.version !== 1) {
    issues.push({ field, message: 'must be what follower.checkpoint() returned (version 1)' });
    return [];
  }
  const { payments } = checkpoint;
  if (!Array.isArray(payments)) {
    issues.push({ field: `${field}.payments`, message: 'must be an array' });
    return [];
  }
  const seeds: Seed[] = [];
  payments.forEach((raw: unknown, i) => {
    const at = `${field}.payments.${i}`;
    if (typeof raw !== 'object' || raw === null) {
      issues.push({ field: at, message: 'must be an object' });
      return;
    }
    const entry = ownProperties(raw) as Partial<
      Record<keyof PaymentFollowerCheckpointEntry, unknown>
    >;
    const idIssue = pathIdProblem(entry.paymentId);
    if (idIssue) issues.push({ field: `${at}.paymentId`, message: idIssue });
    const merchantIssue = merchantIdIssue(entry.merchantId, `${at}.merchantId`);
    if (merchantIssue) issues.push(merchantIssue);
    if (entry.status !== undefined && (typeof entry.status !== 'string' || entry.status === '')) {
      issues.push({ field: `${at}.status`, message: 'must be a non-empty string when present' });
    }
    for (const name of ['createdAt', 'notBefore'] as const) {
      if (entry[name] !== undefined && !isTime(entry[name])) {
        issues.push({ field: `${at}.${name}`, message: 'must be epoch milliseconds when present' });
      }
    }
    if (!isTime(entry.deadlineAt)) {
      issues.push({ field: `${at}.deadlineAt`, message: 'must be epoch milliseconds' });
    }
    if (issues.length > 0) return;
    seeds.push({
      paymentId: entry.paymentId as string,
      merchantId: entry.merchantId as string,
      known:
        typeof entry.status === 'string' ? { status: entry.status, isFinal: false } : undefined,
      createdAt: entry.createdAt as number | undefined,
      notBefore: entry.notBefore as number | undefined,
      deadlineAt: entry.deadlineAt as number,
    });
  });
  return seeds;
}

/** Checks every option (throws `RequestValidationError` naming each bad one); defaults applied. */
export function checkOptions(given: PaymentFollowerOptions | undefined): {
  settings: FollowerSettings;
  seeds: Seed[];
} {
  const options = ownProperties(given ?? {}) as PaymentFollowerOptions;
  const {
    maxHeldReads = 8,
    sweepIntervalMs = 5_000,
    timeoutMs = 15 * 60_000,
    onError,
    signal,
    resumeFrom,
  } = options;
  const issues: ValidationIssue[] = [];
  if (!isWhole(maxHeldReads, 0, 1000)) {
    issues.push({ field: 'maxHeldReads', message: 'must be a whole number from 0 to 1000' });
  }
  if (
    typeof sweepIntervalMs !== 'number' ||
    !(sweepIntervalMs >= 100 && sweepIntervalMs <= MAX_TIMER_MS)
  ) {
    issues.push({
      field: 'sweepIntervalMs',
      message: `must be a number of milliseconds from 100 to ${MAX_TIMER_MS}`,
    });
  }
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    issues.push({
      field: 'timeoutMs',
      message: `must be a positive number of milliseconds, at most ${MAX_TIMER_MS}`,
    });
  }
  if (onError !== undefined && typeof onError !== 'function') {
    issues.push({ field: 'onError', message: 'must be a function' });
  }
  const badSignal = signalProblem(signal);
  if (badSignal !== undefined) issues.push({ field: 'signal', message: badSignal });
  const seeds = resumeFrom === undefined ? [] : checkpointSeeds(resumeFrom, issues);
  if (issues.length > 0) throw new RequestValidationError(OPERATION, issues);
  return { settings: { maxHeldReads, sweepIntervalMs, timeoutMs, onError, signal }, seeds };
}

/** A checkpoint entry from a seed (before any status was yielded for it). */
export function entryOf(seed: Seed, status: string | undefined): PaymentFollowerCheckpointEntry {
  return {
    paymentId: seed.paymentId,
    merchantId: seed.merchantId,
    ...(status === undefined ? {} : { status }),
    ...(seed.createdAt === undefined ? {} : { createdAt: seed.createdAt }),
    ...(seed.notBefore === undefined ? {} : { notBefore: seed.notBefore }),
    deadlineAt: seed.deadlineAt,
  };
}
