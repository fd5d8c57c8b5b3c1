import type { LevelLogger } from './logger';

// Module state, not per client: a deprecation is announced once per process, however many clients.
const warned = new Set<string>();

interface NodeProcess {
  emitWarning?: (message: string, options: { type: string; code: string }) => void;
}

/**
 * Announces a deprecation once per process, keyed by `code`: through the caller's own logger when
 * one was configured (whatever its level), else `process.emitWarning` on Node, else `console.warn`.
 */
export function warnDeprecatedOnce(code: string, message: string, logger: LevelLogger): void {
  if (warned.has(code)) return;
  warned.add(code);
  if (logger.custom) {
    logger.notice(`DeprecationWarning: ${message}`);
    return;
  }
  const proc = (globalThis as { process?: NodeProcess }).process;
  if (typeof proc?.emitWarning === 'function') {
    proc.emitWarning(message, { type: 'DeprecationWarning', code });
    return;
  }
  console.warn(`[merchant-gateway] DeprecationWarning: ${message}`);
}

/** Forgets which deprecations were announced. For tests only; not on the public entry. */
export function resetDeprecationWarnings(): void {
  warned.clear();
}
