/** This package's version, sent as `Sdk-Version`. A test keeps it equal to package.json's. */
export const VERSION = '0.2.0';
