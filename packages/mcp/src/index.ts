/**
 * merchant-gateway-mcp: a safe MCP server for the merchant payment gateway, as a library (the
 * command is `merchant-gateway-mcp`).
 * @packageDocumentation
 */
export { type CliOptions, parseArgs, UsageError } from './args';
export type { AmountCap, Policy, WriteMethod } from './policy';
export { WRITE_METHODS } from './policy';
export { createServer, exposedTools, type ServerOptions, serverFactory } from './server';
export { TOOLS, type ToolSpec } from './tools';
export { VERSION } from './version';
