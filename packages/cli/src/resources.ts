/**
 * The operators' subcommands: `merchants`, `settlements`, `payments` (but `follow`) and `refunds`,
 * each one SDK call with the SDK's own checks, printed as a table or, with `--json`, as the call's
 * result. `payments cancel` and `refunds create` ask first on a terminal and need `--yes` elsewhere.
 */
import { randomUUID } from 'node:crypto';
import type { MerchantGateway } from 'merchant-gateway';
import {
  CLIENT_HELP,
  CLIENT_OPTIONS,
  type CliIo,
  clientOf,
  parse,
  printJson,
  printRecord,
  printTable,
  UsageError,
} from './io';
import { formatAmount, toMinorUnits } from './money';

type Values = Record<string, string | boolean | undefined>;

interface Subcommand {
  /** ` ARGS [--flags]` after the command's name, and what it does. */
  usage: string;
  options?: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  /** Exactly this many positionals. */
  positionals: number;
  /**
   * A keyed create: takes `--idempotency-key KEY` (else a UUID v4 is made here, as the SDK would),
   * sends it, and prints it with the result so a re-run with the same key cannot act twice.
   */
  keyed?: boolean;
  /** Confirm first (`--yes` or a terminal's yes): cancel and refund. */
  confirm?: (args: string[]) => string;
  call(
    gateway: MerchantGateway,
    args: string[],
    values: Values,
    options: { idempotencyKey?: string },
  ): Promise<unknown>;
  /** How a person sees the result; one record by default. */
  print?(io: CliIo, result: never): void;
}

const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

const integer = (values: Values, name: string): number | undefined => {
  const value = str(values, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
};

const required = (values: Values, name: string): string => {
  const value = str(values, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
};

const merchantOf = (args: string[], values: Values): string => {
  const id = args[0] ?? str(values, 'merchant-id');
  if (id === undefined) {
    throw new UsageError(
      'which merchant? give MERCHANT_ID, --merchant-id or MERCHANT_GATEWAY_MERCHANT_ID',
    );
  }
  return id;
};

const PAYMENT_COLUMNS = [
  ['PAYMENT', 'paymentId'],
  ['MERCHANT', 'merchant.id'],
  ['STATUS', 'status'],
  ['AMOUNT', 'fiatAmount'],
  ['REFERENCE', 'referenceId'],
  ['CREATED', 'createdAt'],
] as const;

const SUBCOMMANDS: Record<string, Record<string, Subcommand>> = {
  merchants: {
    list: {
      usage: ' [--status S] [--search TEXT] [--limit N] [--cursor C]   one page of merchants',
      options: {
        status: { type: 'string' },
        search: { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
      },
      positionals: 0,
      call: (gateway, _args, values) =>
        gateway.merchants.list({
          ...(str(values, 'status') ? { status: str(values, 'status') as 'active' } : {}),
          ...(str(values, 'search') ? { search: str(values, 'search') } : {}),
          ...(integer(values, 'limit') === undefined ? {} : { limit: integer(values, 'limit') }),
          ...(str(values, 'cursor') ? { cursor: str(values, 'cursor') } : {}),
        }),
      print(io, page: { merchants: unknown[]; nextCursor?: string | null }) {
        printTable(io, page.merchants, [
          ['MERCHANT', 'id'],
          ['NAME', 'name'],
          ['EMAIL', 'email'],
          ['STATUS', 'status'],
          ['CREATED', 'createdAt'],
        ]);
        if (page.nextCursor) io.stdout(`next page: --cursor ${page.nextCursor}\n`);
      },
    },
    get: {
      usage: ' MERCHANT_ID   a merchant with its settlements',
      positionals: 1,
      call: (gateway, [id]) => gateway.merchants.get(id as string),
    },
    create: {
      usage: ' --name NAME --email EMAIL [--icon-url URL] [--idempotency-key KEY]   a new merchant',
      options: {
        name: { type: 'string' },
        email: { type: 'string' },
        'icon-url': { type: 'string' },
      },
      positionals: 0,
      keyed: true,
      call: (gateway, _args, values, options) =>
        gateway.merchants.create(
          {
            merchantName: required(values, 'name'),
            merchantEmail: required(values, 'email'),
            ...(str(values, 'icon-url') ? { iconUrl: str(values, 'icon-url') } : {}),
          },
          options,
        ),
    },
  },
  settlements: {
    list: {
      usage: " [MERCHANT_ID]   a merchant's fiat and crypto settlements",
      positionals: -1,
      call: (gateway, args, values) => gateway.settlements.list(merchantOf(args, values)),
      print(io, list: { fiat: unknown[]; crypto: unknown[] }) {
        printTable(
          io,
          [
            ...list.crypto.map((s) => ({ kind: 'crypto', ...(s as object) })),
            ...list.fiat.map((s) => ({ kind: 'fiat', ...(s as object) })),
          ],
          [
            ['KIND', 'kind'],
            ['SETTLEMENT', 'id'],
            ['ASSET', 'asset'],
            ['DESTINATION', 'destination'],
            ['STATUS', 'status'],
          ],
        );
      },
    },
    add: {
      usage:
        ' [MERCHANT_ID] --asset CAIP19 --destination CAIP10 [--idempotency-key KEY]   registers a crypto settlement',
      options: { asset: { type: 'string' }, destination: { type: 'string' } },
      positionals: -1,
      keyed: true,
      call: async (gateway, args, values, options) => ({
        settlements: await gateway.settlements.createCrypto(
          merchantOf(args, values),
          [{ asset: required(values, 'asset'), destination: required(values, 'destination') }],
          options,
        ),
      }),
      print: (io, { settlements }: { settlements: unknown[] }) =>
        printTable(io, settlements, [
          ['SETTLEMENT', 'id'],
          ['ASSET', 'asset'],
          ['DESTINATION', 'destination'],
        ]),
    },
  },
  payments: {
    create: {
      usage:
        ' --amount 12.50 --currency USD --reference ID [--expires-at ISO] [--idempotency-key KEY]   a payment (amount in major units)',
      options: {
        amount: { type: 'string' },
        currency: { type: 'string' },
        reference: { type: 'string' },
        'expires-at': { type: 'string' },
      },
      positionals: 0,
      keyed: true,
      call(gateway, _args, values, options) {
        const currency = required(values, 'currency');
        let value: string;
        try {
          value = toMinorUnits(required(values, 'amount'), currency);
        } catch (error) {
          throw error instanceof UsageError ? error : new UsageError((error as Error).message);
        }
        const expiresAt = str(values, 'expires-at');
        let expires: Date | undefined;
        if (expiresAt !== undefined) {
          expires = new Date(expiresAt);
          if (Number.isNaN(expires.getTime())) {
            throw new UsageError(
              '--expires-at must be an ISO 8601 date-time, e.g. 2026-12-01T12:00:00Z',
            );
          }
        }
        return gateway.payments.create(
          {
            amount: { unit: `iso4217/${currency}`, value },
            referenceId: required(values, 'reference'),
            ...(expires ? { expiresAt: expires } : {}),
          },
          options,
        );
      },
    },
    get: {
      usage: ' PAYMENT_ID   the payment as the buyer sees it',
      positionals: 1,
      call: (gateway, [id]) => gateway.payments.get(id as string),
    },
    details: {
      usage: " PAYMENT_ID   the payment's details (the merchant's side)",
      positionals: 1,
      call: (gateway, [id]) => gateway.payments.details(id as string),
    },
    status: {
      usage: " PAYMENT_ID   the payment's status",
      positionals: 1,
      call: (gateway, [id]) => gateway.payments.status(id as string),
    },
    list: {
      usage:
        " [--status S]... [--reference TEXT] [--limit N] [--cursor C]   one page of the partner's payments (--merchant-id: one merchant's)",
      options: {
        status: { type: 'string' },
        reference: { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
      },
      positionals: 0,
      call(gateway, _args, values) {
        const merchantId = str(values, 'merchant-id');
        const status = str(values, 'status');
        return gateway.partnerPayments.list({
          ...(merchantId ? { merchantId } : {}),
          ...(status ? { status: status.split(',') as ['succeeded'] } : {}),
          ...(str(values, 'reference') ? { referenceId: str(values, 'reference') } : {}),
          ...(integer(values, 'limit') === undefined ? {} : { limit: integer(values, 'limit') }),
          ...(str(values, 'cursor') ? { cursor: str(values, 'cursor') } : {}),
        });
      },
      print(io, page: { data: unknown[]; nextCursor?: string | null }) {
        printTable(io, page.data, PAYMENT_COLUMNS as never);
        if (page.nextCursor) io.stdout(`next page: --cursor ${page.nextCursor}\n`);
      },
    },
    cancel: {
      usage: ' PAYMENT_ID [--yes]   cancels an open payment',
      options: { yes: { type: 'boolean', short: 'y' } },
      positionals: 1,
      confirm: ([id]) => `Cancel payment ${id}?`,
      call: (gateway, [id]) => gateway.payments.cancel(id as string),
    },
  },
  refunds: {
    create: {
      usage: ' PAYMENT_ID [--yes]   refunds a succeeded payment (once)',
      options: { yes: { type: 'boolean', short: 'y' } },
      positionals: 1,
      confirm: ([id]) => `Refund payment ${id}?`,
      call: (gateway, [paymentId]) => gateway.refunds.create({ paymentId: paymentId as string }),
    },
  },
};

/**
 * A result as a person reads it: amounts (`{ unit, value }`) in major units with their currency
 * (`20.20 USD`, see `formatAmount`), and epoch-second times (`expiresAt`) as ISO 8601. `--json`
 * keeps the service's values as they are.
 */
export function forPeople(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => forPeople(item));
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (
      typeof record.unit === 'string' &&
      (typeof record.value === 'string' || !('value' in record))
    ) {
      return formatAmount(record as Parameters<typeof formatAmount>[0]);
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, forPeople(v, k)]));
  }
  if (typeof value === 'number' && /At$/.test(key) && Number.isInteger(value) && value > 0) {
    // The service's timestamps in numbers are seconds since the epoch (`expiresAt`).
    const date = new Date(value * 1000);
    if (!Number.isNaN(date.getTime())) return date.toISOString().replace('.000Z', 'Z');
  }
  return value;
}

/** The groups and verbs, for the top-level help. */
export function resourceHelp(): string {
  const lines: string[] = [];
  for (const [group, verbs] of Object.entries(SUBCOMMANDS)) {
    for (const [verb, sub] of Object.entries(verbs)) {
      lines.push(`  ${group} ${verb}${sub.usage.split('   ')[0]}`);
    }
  }
  return lines.join('\n');
}

export function isResourceCommand(group: string): boolean {
  return Object.hasOwn(SUBCOMMANDS, group);
}

/** Runs `GROUP VERB …`; resolves with the exit code (errors are thrown to the caller to report). */
export async function runResource(group: string, argv: string[], io: CliIo): Promise<number> {
  const verbs = SUBCOMMANDS[group] as Record<string, Subcommand>;
  const verb = argv[0];
  const groupHelp = () =>
    `Usage:\n${Object.entries(verbs)
      .map(([name, sub]) => `  merchant-gateway ${group} ${name}${sub.usage}`)
      .join('\n')}\n\n`;
  if (verb === undefined || verb === '--help' || verb === '-h') {
    io.stdout(groupHelp());
    return 0;
  }
  const sub = Object.hasOwn(verbs, verb) ? verbs[verb] : undefined;
  if (sub === undefined) {
    throw new UsageError(
      `unknown command: ${group} ${verb} (one of ${Object.keys(verbs).join(', ')})`,
    );
  }
  const { values, positionals } = parse(argv.slice(1), {
    ...CLIENT_OPTIONS,
    ...sub.options,
    ...(sub.keyed ? { 'idempotency-key': { type: 'string' } } : {}),
  });
  if (values.help) {
    const [args, what] = sub.usage.split('   ');
    io.stdout(`Usage: merchant-gateway ${group} ${verb}${args}\n\n${what}.\n\n${CLIENT_HELP}\n`);
    return 0;
  }
  if (sub.positionals >= 0 ? positionals.length !== sub.positionals : positionals.length > 1) {
    throw new UsageError(`${group} ${verb} takes${sub.usage.split('   ')[0]}`);
  }
  const gateway = await clientOf(values, io);
  const given: Values = { ...values };
  given['merchant-id'] ??= io.env.MERCHANT_GATEWAY_MERCHANT_ID || undefined;
  if (sub.confirm !== undefined && given.yes !== true) {
    if (!io.stdinIsTTY) {
      throw new UsageError(
        `${group} ${verb} changes money: pass --yes to confirm (no terminal to ask on)`,
      );
    }
    const answer = await io.ask(`${sub.confirm(positionals)} [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) {
      io.stderr('merchant-gateway: not confirmed; nothing was sent\n');
      return 1;
    }
  }
  let idempotencyKey: string | undefined;
  if (sub.keyed) {
    const asked = values['idempotency-key'];
    idempotencyKey = typeof asked === 'string' ? asked : randomUUID();
  }
  const result = await sub.call(
    gateway,
    positionals,
    given,
    idempotencyKey === undefined ? {} : { idempotencyKey },
  );
  // The key goes with the result: run the command again with it and the service answers with
  // this result instead of acting a second time.
  const shown = idempotencyKey === undefined ? result : { ...(result as object), idempotencyKey };
  if (values.json) printJson(io, shown);
  else (sub.print ?? printRecord)(io, forPeople(shown) as never);
  return 0;
}
