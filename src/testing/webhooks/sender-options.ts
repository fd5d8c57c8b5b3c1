/** What configures the mock's webhook sender, checked once: its options and each endpoint. */

import { MAX_TIMER_MS } from '../../core/timers';
import { WEBHOOK_SECRET_PREFIX } from '../../rules/webhook-secret';
import { generateWebhookSecret, secretKeyBytes } from '../../webhooks/signature';
import type { MockWebhookChaos, MockWebhookEndpoint, MockWebhookEndpointInput } from '../types';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_LOG_SIZE = 10_000;

export type WebhookFetch = (input: string, init: RequestInit) => Promise<Response>;

export interface SenderOptions {
  seed: number;
  retryScale?: number | undefined;
  timeoutMs?: number | undefined;
  chaos?: MockWebhookChaos | undefined;
  logSize?: number | undefined;
  fetch?: WebhookFetch | undefined;
}

/** `value` when it is a finite number > 0, `fallback` when absent, else a RangeError naming `name`. */
export function positive(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`createMockGateway: ${name} must be a number > 0, got ${String(value)}`);
  }
  return value;
}

/** The chaos settings with every rate from 0 to 1 and a window a timer can keep; absent is 0. */
export function checkChaos(chaos: MockWebhookChaos): Required<MockWebhookChaos> {
  const rate = (value: number | undefined, name: string) => {
    if (value === undefined) return 0;
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new RangeError(`webhookChaos.${name} must be a number from 0 to 1, got ${value}`);
    }
    return value;
  };
  const window = chaos.reorderWindowMs ?? 0;
  if (typeof window !== 'number' || !(window >= 0 && window <= MAX_TIMER_MS)) {
    throw new RangeError(`webhookChaos.reorderWindowMs must be a number of ms >= 0, got ${window}`);
  }
  return {
    duplicateRate: rate(chaos.duplicateRate, 'duplicateRate'),
    dropRate: rate(chaos.dropRate, 'dropRate'),
    reorderWindowMs: window,
  };
}

/** A valid endpoint, or a TypeError naming the field (never the secret). */
export function checkEndpoint(input: MockWebhookEndpointInput, id: string): MockWebhookEndpoint {
  if (!input || typeof input !== 'object') throw new TypeError('webhook endpoint: must be { url }');
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new TypeError('webhook endpoint: url must be an absolute http: or https: URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('webhook endpoint: url must be an absolute http: or https: URL');
  }
  const secret = input.secret ?? generateWebhookSecret();
  if (
    typeof secret !== 'string' ||
    !secret.startsWith(WEBHOOK_SECRET_PREFIX) ||
    secretKeyBytes(secret) === undefined
  ) {
    throw new TypeError('webhook endpoint: secret must be whsec_ followed by base64');
  }
  const { types } = input;
  if (
    types !== undefined &&
    !(Array.isArray(types) && types.every((t) => typeof t === 'string' && t !== ''))
  ) {
    throw new TypeError('webhook endpoint: types must be an array of event types');
  }
  return { id, url: url.href, secret, types: types ? [...types] : null };
}

/** A copy a caller may change without changing the endpoint. */
export function copyEndpoint(endpoint: MockWebhookEndpoint): MockWebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    secret: endpoint.secret,
    types: endpoint.types && [...endpoint.types],
  };
}
