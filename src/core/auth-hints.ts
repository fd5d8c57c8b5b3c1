// Only a 401 reads these hints: the failure path (failure-path.ts) builds them from the sources a
// client records at construction, so a browser bundle loads the wording with its first failure.

/** Where a credential came from: the client's option, the environment, or nowhere. */
export type CredentialSource = 'option' | 'env' | undefined;

/** Where each of a client's keys came from (no `apiKey` means the app scheme). */
export interface AuthSources {
  apiKey: CredentialSource;
  legacyApiKey: CredentialSource;
}

/**
 * What a 401 tells the caller to check, per auth scheme: the setting's name, and the environment
 * variable when the value came from there; never the value. No `apiKey` means the app scheme.
 */
export function authHints(from: AuthSources): {
  partner: string;
  legacy: string;
} {
  const check = 'The service refused the credentials: check';
  const partner =
    from.apiKey === undefined
      ? `${check} appId and clientId`
      : from.apiKey === 'option'
        ? `${check} the apiKey option`
        : `${check} MERCHANT_GATEWAY_API_KEY (the apiKey read from the environment)`;
  const legacy =
    from.legacyApiKey === undefined
      ? partner
      : from.legacyApiKey === 'option'
        ? `${check} the legacyApiKey option`
        : `${check} MERCHANT_GATEWAY_LEGACY_API_KEY (the legacyApiKey read from the environment)`;
  return { partner, legacy };
}
