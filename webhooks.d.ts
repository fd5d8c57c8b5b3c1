// For TypeScript's legacy `moduleResolution: node10`, which reads no `exports` map: it finds
// `merchant-gateway/webhooks` here. Every other resolution (and Node itself) uses `exports`.
export * from './dist/webhooks';
