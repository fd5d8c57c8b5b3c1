// The main entry's browser build: the verifier and the event schemas load with the first
// verification, not with the SDK (tsup.config.ts swaps this in for receiver-load.ts).
import { lazyImport } from '../core/lazy-import';
import type { Receiver } from './receiver-load';

export type { Receiver };

export const loadReceiver: () => Receiver | Promise<Receiver> = lazyImport(
  () => import('./receiver'),
);
