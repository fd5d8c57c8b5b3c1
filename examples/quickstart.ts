// The end-to-end quickstart (against the embedded mock service) replaces this once the mock lands.
console.log('merchant-gateway: the quickstart runs here once the mock service is in place.');
