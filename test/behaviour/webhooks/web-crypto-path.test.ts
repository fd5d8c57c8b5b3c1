// The Web Crypto path (Workers, browsers, edge VMs: no `process.getBuiltinModule`) judged by the
// same tests as the node:crypto path: the property against standardwebhooks, the test vector and
// the refusals, interop with standardwebhooks and svix both ways. `node:crypto` is hidden before
// any of them loads; the check below shows the verifier really signs with Web Crypto then.
import { vi } from 'vitest';

vi.hoisted(() => {
  const host = process as { getBuiltinModule?: (id: string) => unknown };
  const original = host.getBuiltinModule?.bind(process);
  host.getBuiltinModule = (id: string) =>
    id === 'node:crypto' || id === 'crypto' ? undefined : original?.(id);
});

import { Webhooks } from 'merchant-gateway/webhooks';
import { Webhook } from 'standardwebhooks';
import { expect, test } from 'vitest';
import { paymentSucceeded, webhookBody } from '../../support/webhook-fixtures';
import './verdicts.property.test';
import './verify.test';
import './interop.test';

test('without node:crypto, a delivery is signed and checked with Web Crypto', async () => {
  const sign = vi.spyOn(crypto.subtle, 'sign');
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = webhookBody(paymentSucceeded);
  const date = new Date();
  const headers = {
    'webhook-id': 'msg_web_crypto',
    'webhook-timestamp': String(Math.floor(date.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_web_crypto', date, body),
  };
  const event = await new Webhooks({ secret }).unwrap(body, headers);
  expect(event.type).toBe('payment.succeeded');
  expect(sign).toHaveBeenCalledTimes(1);
});
