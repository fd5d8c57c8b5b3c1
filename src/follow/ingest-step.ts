// The follower's side of `follower.ingest(event)`: a verified webhook's snapshot joins the
// stream under the same rule as a read (ingest.ts reads the snapshot).
import type { PaymentStatusResult } from '../schemas/payment-status';
import { type Entry, isNews } from './entries';
import { type FollowerIngestOutcome, type IngestibleEvent, snapshotOf } from './ingest';

/**
 * Takes in a webhook's snapshot of a followed payment. Its `payment_state_version` orders it
 * among the snapshots taken in before; its status is reported when it is news, under the same
 * rule as a read's (a status the follower knows, or one behind it, as when a buyer backed out, is
 * not), so a change learned both ways is yielded once, by whichever came first. A final status
 * not yet yielded is news whatever its version: a relay's and the service's numbering are two
 * sequences, and a final must not wait for a sweep because the other sender numbered it lower.
 */
export function ingestInto(
  follower: { readonly closed: boolean; readonly entries: ReadonlyMap<string, Entry> },
  event: IngestibleEvent,
  report: (entry: Entry, result: PaymentStatusResult) => void,
): FollowerIngestOutcome {
  const snapshot = snapshotOf(event);
  if (snapshot === undefined) return 'not-followed';
  const { paymentId, version, result } = snapshot;
  const entry = follower.entries.get(paymentId);
  if (follower.closed || entry === undefined) return 'not-followed';
  // Its final change waits to be yielded: nothing can follow it.
  if (entry.done) return 'stale';
  if (!result.isFinal && entry.version !== undefined && version <= entry.version) return 'stale';
  entry.version = Math.max(version, entry.version ?? version);
  if (!isNews(entry, result)) return 'stale';
  report(entry, result);
  return 'yielded';
}
