import type { MerchantRecord, PaymentRecord } from './records';
import { Rng } from './rng';
import { generateSampleData } from './sample-data';
import type { FailNextOptions, MockCredentials, MockSample, RecordedRequest } from './types';

/** What the mock's behaviour depends on besides its state. */
export interface MockConfig {
  credentials: MockCredentials;
  pollInMs: number;
  viewPollHints: boolean;
}

/** A stored successful answer, replayed for a retry with the same Idempotency-Key. */
export interface IdempotentResult {
  fingerprint: string;
  status: number;
  body: unknown;
}

export interface Fault {
  options: FailNextOptions;
  remaining: number;
}

/** The mock's whole mutable state; `reset()` rebuilds it from the seed. */
export class Store {
  readonly merchants = new Map<string, MerchantRecord>();
  readonly payments = new Map<string, PaymentRecord>();
  readonly idempotency = new Map<string, IdempotentResult>();
  /** Cleared in place so that a reference a test holds stays live. */
  readonly requests: RecordedRequest[] = [];
  readonly faults: Fault[] = [];
  readonly sample: MockSample;
  rng: Rng;
  requestCount = 0;

  constructor(
    readonly seed: number,
    readonly config: MockConfig,
  ) {
    this.rng = new Rng(seed);
    this.sample = this.load();
  }

  reset(): void {
    this.rng = new Rng(this.seed);
    this.load();
  }

  private load(): MockSample {
    const data = generateSampleData(this.seed, this.rng);
    this.merchants.clear();
    this.payments.clear();
    this.idempotency.clear();
    this.requests.length = 0;
    this.faults.length = 0;
    this.requestCount = 0;
    for (const merchant of data.merchants) this.merchants.set(merchant.id, merchant);
    for (const payment of data.payments) this.payments.set(payment.id, payment);
    return data.sample;
  }

  /** Takes one use of the oldest queued fault that matches the request, if any. */
  takeFault(method: string, path: string): FailNextOptions | undefined {
    const index = this.faults.findIndex(({ options: { match } }) => {
      if (match?.method !== undefined && match.method.toUpperCase() !== method) return false;
      if (match?.path === undefined) return true;
      if (typeof match.path === 'string') return path.includes(match.path);
      match.path.lastIndex = 0; // a /g pattern keeps state between tests
      return match.path.test(path);
    });
    const fault = this.faults[index];
    if (!fault) return undefined;
    if (--fault.remaining <= 0) this.faults.splice(index, 1);
    return fault.options;
  }
}
