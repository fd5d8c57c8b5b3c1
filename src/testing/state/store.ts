import type {
  FailNextOptions,
  MockCredentials,
  MockFee,
  MockSample,
  RecordedRequest,
} from '../types';
import type { PaymentEvent } from './events';
import type { MerchantRecord, PaymentRecord } from './records';
import { Rng } from './rng';
import { generateSampleData, type SampleData } from './sample-data';

/** What the mock's behaviour depends on besides its state. */
export interface MockConfig {
  credentials: MockCredentials;
  pollInMs: number;
  viewPollHints: boolean;
  /** Status reads with `maxPollMs` wait for a change (true) or answer at once (false). */
  holdStatusReads: boolean;
  /** How many recorded requests `requests` keeps (the newest). */
  requestLogSize: number;
  /** How long a buyer's quote (a payment option) can be confirmed, in milliseconds. */
  quoteWindowMs: number;
  /** How long after succeeding a payment settles, in milliseconds. */
  settleAfterMs: number;
  /** The fee the service takes of each paid option, or null (no fee). */
  fee: MockFee | null;
}

/** Where the lifecycle sends each payment event (the webhook sender), when anyone listens. */
export interface EventSink {
  /** Whether an event would go anywhere: a snapshot is built only then. */
  wanted(): boolean;
  send(event: PaymentEvent): void;
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
  /** Event ids (`evt_…`): a source of their own, so events never shift the payments' ids. */
  eventRng: Rng;
  /** The webhook sender, once the mock has one. */
  events: EventSink | undefined;
  /** Timers of the lifecycle (expiries, settlements, the confirm's success): cleared by reset. */
  readonly timers = new Set<ReturnType<typeof setTimeout>>();
  requestCount = 0;
  /** Bumped by every reset: what a cache of the payments (the lists' sort orders) keys on. */
  generation = 0;
  /** The seeded state, generated once and copied on every reset (copying is far cheaper). */
  private readonly pristine: SampleData;
  private readonly pristineRngState: number;
  private readonly seed: number;

  constructor(
    seed: number,
    readonly config: MockConfig,
  ) {
    const rng = new Rng(seed);
    this.pristine = generateSampleData(seed, rng);
    this.pristineRngState = rng.state;
    this.sample = deepFreeze(this.pristine.sample);
    this.rng = rng;
    this.eventRng = new Rng(seed ^ 0x5eed_e7e7);
    this.seed = seed;
    this.reset();
  }

  reset(): void {
    this.generation++;
    this.rng = new Rng(this.pristineRngState);
    this.eventRng = new Rng(this.seed ^ 0x5eed_e7e7);
    this.stopTimers();
    this.merchants.clear();
    this.payments.clear();
    this.idempotency.clear();
    this.requests.length = 0;
    this.faults.length = 0;
    this.requestCount = 0;
    for (const m of this.pristine.merchants) {
      this.merchants.set(m.id, {
        ...m,
        crypto: m.crypto.map((s) => ({ ...s })),
        fiat: m.fiat.map((s) => ({ ...s })),
      });
    }
    for (const p of this.pristine.payments) {
      this.payments.set(p.id, {
        ...p,
        buyer: p.buyer && { ...p.buyer },
        tx: p.tx && { ...p.tx },
        settlement: p.settlement && { ...p.settlement },
      });
    }
  }

  /** Runs `run` after `ms` unless reset() or close() comes first; never keeps a process alive. */
  later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    (timer as { unref?: () => void }).unref?.();
    this.timers.add(timer);
  }

  stopTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Records a request, dropping the oldest beyond `requestLogSize`: the log never grows without end. */
  record(entry: RecordedRequest): void {
    this.requests.push(entry);
    const excess = this.requests.length - this.config.requestLogSize;
    if (excess > 0) this.requests.splice(0, excess);
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

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) {
    if (inner && typeof inner === 'object') deepFreeze(inner);
  }
  return Object.freeze(value);
}
