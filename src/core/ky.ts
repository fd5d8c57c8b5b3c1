import ky, { replaceOption } from 'ky';

/** What the transport uses of ky. */
export interface KyParts {
  ky: typeof ky;
  replaceOption: typeof replaceOption;
}

const PARTS: KyParts = { ky, replaceOption };

/**
 * ky, loaded with the SDK: the build for browsers, Workers and CommonJS, where one bundle beats a
 * second fetch. The Node ESM build swaps this module for `ky-lazy.ts` (see tsup.config.ts).
 */
export function loadKy(): KyParts | Promise<KyParts> {
  return PARTS;
}
