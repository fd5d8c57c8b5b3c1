/** This package's version, as published. */
export const VERSION = '0.1.0';
