import * as z from 'zod/mini';
import { toIssues } from '../core/validate';
import { WebhookVerificationError } from './errors';
import { type WebhookEvent, WebhookEventSchema } from './events';

// fatal: a body that is not UTF-8 is not the service's JSON (a lenient decode would hide that).
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The event in a verified body: JSON, with the envelope's five fields, and for a documented
 * payment type a snapshot that matches. Anything else is `invalid_payload`, naming the field
 * and never quoting the body (a JSON.parse message would).
 */
export function parseWebhookEvent(body: string | Uint8Array): WebhookEvent {
  let json: unknown;
  try {
    json = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is not JSON in UTF-8');
  }
  const result = z.safeParse(WebhookEventSchema, json);
  if (result.success) return result.data;
  const issues = toIssues(result.error);
  const list = issues.map((i) => (i.field === '' ? i.message : `${i.field} ${i.message}`));
  throw new WebhookVerificationError(
    'invalid_payload',
    `the event does not have the service's shape: ${list.join('; ')}`,
    { issues },
  );
}
