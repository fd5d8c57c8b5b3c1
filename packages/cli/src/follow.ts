/**
 * `merchant-gateway payments follow [ID…] [--all]`: one line per status change; on a terminal a
 * live status line under them, else (or with `--json`) plain lines (JSON lines with `--json`).
 * With IDs it ends once each is final; with `--all` it follows every open payment of the partner,
 * and those created while it runs, until stopped.
 */
import type { PaymentStatusChange } from 'merchant-gateway';
import {
  CLIENT_HELP,
  CLIENT_OPTIONS,
  type CliIo,
  clientOf,
  parse,
  sweepInterval,
  UsageError,
} from './io';
import { Relay } from './relay/relay';
import type { RelayEvent } from './relay/webhook';

export const FOLLOW_USAGE = `Usage: merchant-gateway payments follow ID... | --all [--sweep-interval MS] [--json]

Prints one line per status change of the payments given (until each is final), or of every open
payment of the partner with --all (and those created while it runs, until Ctrl+C). On a terminal a
live status line stays under the changes; --json prints one JSON object per line instead.

  --all                 every open payment of the partner, and new ones
  --sweep-interval MS   how often the partner's list is read (default 5000)

${CLIENT_HELP}
`;

/** Clears the live line (carriage return, erase line). */
const CLEAR = '\r\x1b[2K';

export async function runFollow(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...CLIENT_OPTIONS,
    all: { type: 'boolean' },
    'sweep-interval': { type: 'string' },
  });
  if (values.help) {
    io.stdout(FOLLOW_USAGE);
    return 0;
  }
  if ((values.all === true) === positionals.length > 0) {
    throw new UsageError('payments follow takes payment ids or --all (one of the two)');
  }
  const sweepIntervalMs = sweepInterval(values['sweep-interval']);
  const gateway = await clientOf(values, io);
  const live = io.stdoutIsTTY && values.json !== true;
  let changes = 0;
  let last = '';
  const print = (change: PaymentStatusChange, timestamp: string, followed: number) => {
    changes++;
    if (values.json) {
      io.stdout(`${JSON.stringify({ timestamp, ...change })}\n`);
      return;
    }
    const from = change.previousStatus ?? '(first read)';
    const line = `${timestamp}  ${change.paymentId}  ${from} → ${change.status}${change.isFinal ? ' (final)' : ''}`;
    last = `${change.paymentId} ${change.status}`;
    io.stdout(live ? `${CLEAR}${line}\n${status(followed)}` : `${line}\n`);
  };
  const status = (followed: number) =>
    `following ${followed} payment${followed === 1 ? '' : 's'} · ${changes} change${changes === 1 ? '' : 's'}${last ? ` · last: ${last}` : ''}`;

  if (values.all) {
    let relay: Relay | undefined;
    const sink = {
      events: (): RelayEvent[] => [],
      start() {},
      async drain() {},
      push() {},
      change: (change: PaymentStatusChange) =>
        print(change, new Date().toISOString(), relay?.followed ?? 0),
    };
    relay = new Relay({
      gateway,
      sink,
      store: undefined,
      sweepIntervalMs,
      warn: (message) => io.stderr(`${live ? CLEAR : ''}merchant-gateway: ${message}\n`),
    });
    if (live) io.stdout(status(0));
    const end = await relay.run(io.stop);
    if (live) io.stdout(`${CLEAR}${status(relay.followed)}\n`);
    if (end.reason === 'failed') throw end.error;
    return 0;
  }

  let failed = false;
  const follower = gateway.payments.follower({
    sweepIntervalMs,
    onError(error) {
      io.stderr(`${live ? CLEAR : ''}merchant-gateway: ${error.message}\n`);
      // Once the follower has let go of it: a payment that left without a final status fails the follow.
      queueMicrotask(() => {
        if (follower.size < given) {
          failed = true;
          given = follower.size;
        }
        if (follower.size === 0) follower.close();
      });
    },
  });
  let given = 0;
  for (const id of positionals) follower.add(id);
  given = follower.size;
  void io.stop.then(() => follower.close());
  if (live) io.stdout(status(follower.size));
  for await (const change of follower) {
    if (change.isFinal) given--;
    print(change, new Date().toISOString(), follower.size);
    if (follower.size === 0) break;
  }
  follower.close();
  if (live) io.stdout(`${CLEAR}${status(follower.size)}\n`);
  return failed ? 1 : 0;
}
