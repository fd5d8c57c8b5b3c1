/** Where a credential came from: the client's option, the environment, or nowhere. */
export type CredentialSource = 'option' | 'env' | undefined;

/** `given` is the option as passed, `resolved` what the client uses (the option, else the env). */
export function source(given: string | undefined, resolved: string | undefined): CredentialSource {
  if (resolved === undefined) return undefined;
  return given !== undefined ? 'option' : 'env';
}

/**
 * What a 401 tells the caller to check, per auth scheme: the setting's name, and the environment
 * variable when the value came from there; never the value. No `apiKey` means the app scheme.
 */
export function authHints(from: { apiKey: CredentialSource; legacyApiKey: CredentialSource }): {
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
