// Why: every list page is validated with zod before the caller sees it; this prices that per page and per item.
import * as z from 'zod/mini';
import { listPage } from '../scripts/stub-gateway.mjs';
import { loadSdk, median, table } from './common';

const PAGE_SIZE = 200;
const ITERATIONS = 200;

export type ValidationResult =
  | { pending: string }
  | { pageSize: number; perPageUs: number; perItemUs: number; jsonParsePerPageUs: number };

export async function runValidation(): Promise<ValidationResult> {
  const sdk = await loadSdk();
  const schema = (sdk as unknown as Record<string, unknown>).MerchantPaymentsPageSchema as
    | z.ZodMiniType
    | undefined;
  if (schema === undefined) {
    const pending = 'MerchantPaymentsPageSchema is not exported on this branch yet: pending';
    console.log(`\n(c) validation cost: ${pending}`);
    return { pending };
  }
  const page = listPage(0, PAGE_SIZE, '1');
  const text = JSON.stringify(page);
  const check = z.safeParse(schema, page);
  if (!check.success) throw new Error(`the stub's page does not match the schema: ${check.error}`);

  const time = (fn: () => unknown) => {
    for (let i = 0; i < ITERATIONS; i++) fn();
    const samples: number[] = [];
    for (let r = 0; r < 9; r++) {
      const t = performance.now();
      for (let i = 0; i < ITERATIONS; i++) fn();
      samples.push(((performance.now() - t) / ITERATIONS) * 1000);
    }
    return median(samples);
  };
  // Each parse gets a fresh object, as each page from the wire is one.
  const fresh = () => JSON.parse(text) as unknown;
  const jsonParsePerPageUs = time(fresh);
  const bothPerPageUs = time(() => z.safeParse(schema, fresh()));
  const perPageUs = bothPerPageUs - jsonParsePerPageUs;
  const result = {
    pageSize: PAGE_SIZE,
    perPageUs,
    perItemUs: perPageUs / PAGE_SIZE,
    jsonParsePerPageUs,
  };
  table(
    `(c) validation cost: safeParse(MerchantPaymentsPageSchema) of a ${PAGE_SIZE}-item page (${(text.length / 1024).toFixed(0)} KB JSON), median of 9 × ${ITERATIONS}`,
    ['measure', 'value'],
    [
      ['zod safeParse per page', `${perPageUs.toFixed(0)} µs`],
      ['zod safeParse per item', `${result.perItemUs.toFixed(2)} µs`],
      ['JSON.parse per page (for scale)', `${jsonParsePerPageUs.toFixed(0)} µs`],
    ],
  );
  return result;
}
