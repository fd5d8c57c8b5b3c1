// Why: lets the TypeScript benchmarks import the stub server with types under strict tsc.
export declare const STUB_API_KEY: string;
export declare const STUB_MERCHANT_ID: string;
export declare function paymentCreated(paymentId: string): Record<string, unknown>;
export declare function paymentView(): Record<string, unknown>;
export declare function listItem(n: number): Record<string, unknown>;
export declare function listPage(
  start: number,
  size: number,
  nextCursor: string | null,
): { data: Record<string, unknown>[]; nextCursor: string | null; stats: Record<string, unknown> };
export interface StubGateway {
  url: string;
  readonly count: number;
  close(): Promise<void>;
}
export declare function startStubGateway(options?: {
  port?: number;
  pages?: number;
  pageSize?: number;
}): Promise<StubGateway>;
