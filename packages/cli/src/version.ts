/** This package's version, as published (`merchant-gateway --version`). A test keeps it equal to package.json's. */
export const VERSION = '0.1.0';
