// Why: lets the TypeScript benchmarks install and run the same cached Node binaries under strict tsc.
/** The node binary of one version (`'24'`, or exactly `'22.12.0'`), installed once into .cache/runtimes. */
export declare function nodeBinary(version: string): string;
