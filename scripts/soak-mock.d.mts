/** Types of scripts/soak-mock.mjs, for the soak test of the suite. */
export interface MockCommand {
  url: string;
  apiKey: string;
  merchantId: string;
  pid: number | undefined;
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<number | null>;
}

export interface SoakFigures {
  requests: number;
  answered: number;
  unanswered: number;
  unexpected: string[];
  byKind: Record<string, { sent: number; answered: number; totalMs: number }>;
  refusedBodies: number;
  bytesOffered: number;
  elapsedMs: number;
  memory: (NodeJS.MemoryUsage & { at: number })[];
  peakRss: number;
  peakHeapUsed: number;
  heapGrowth: number;
  requestsAfterWarmup: number;
}

export function startMockCommand(options?: { requestLogSize?: number }): Promise<MockCommand>;

export function soak(
  mock: MockCommand,
  options: {
    requests: number;
    maxMs: number;
    concurrency?: number;
    samples?: number;
    warmup?: number;
  },
): Promise<SoakFigures>;

export interface NearLimitFigures {
  sent: number;
  bytesSent: number;
  unexpected: string[];
  before: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
  heapGrowth: number;
  rssGrowth: number;
}

export function soakNearLimit(
  mock: MockCommand,
  options: { count: number; concurrency?: number },
): Promise<NearLimitFigures>;
