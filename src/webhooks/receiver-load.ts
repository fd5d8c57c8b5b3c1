// The receiver loaded with the SDK; the main entry's browser build swaps in
// receiver-load-lazy.ts (tsup.config.ts), which imports it on the first verification.
import * as receiver from './receiver';

export type Receiver = typeof receiver;

export function loadReceiver(): Receiver | Promise<Receiver> {
  return receiver;
}
