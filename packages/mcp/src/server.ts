// The MCP server: registers the tool table and applies the safety policy, in one place
// (`guarded`), around every writing tool. One factory serves both protocol eras: 2026-07-28
// clients (2.x SDK) and 2025-11-25 ones (the 1.x SDK's client).
import {
  acceptedContent,
  type CallToolRequest,
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequiredResult,
  inputRequired,
  McpServer,
  type McpServerFactory,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { MerchantGateway } from 'merchant-gateway';
import * as z from 'zod/mini';
import {
  type AuditEntry,
  amountRefusal,
  auditLine,
  capRefusal,
  confirmationState,
  errorInfo,
  idempotencyKeyFor,
  type Policy,
  redact,
} from './policy';
import { type CallContext, TOOLS, type ToolSpec } from './tools';
import { VERSION } from './version';

/** What the server needs: the SDK client to call and the policy to apply. */
export interface ServerOptions {
  gateway: MerchantGateway;
  policy: Policy;
  /**
   * True where the transport cannot carry a server-to-client request for a 2025-11-25 client
   * (stateless HTTP): confirmations are refused there with the reason, never left hanging.
   */
  legacyCannotElicit?: boolean;
}

/** The tools this policy exposes: every reading tool, and the writes `--allow` names. */
export function exposedTools(policy: Policy): ToolSpec[] {
  return TOOLS.filter(
    (tool) =>
      tool.kind === 'read' || (tool.method !== undefined && policy.allowed.has(tool.method)),
  );
}

const ConfirmSchema = z.object({ confirm: z.boolean() });
const confirmRequest = (message: string) => ({
  message,
  requestedSchema: {
    type: 'object' as const,
    properties: {
      confirm: { type: 'boolean' as const, title: 'Confirm', description: 'Check to go ahead.' },
    },
    required: ['confirm'],
  },
});

type Answer = 'accept' | 'decline' | 'cancel' | { refuse: string } | { ask: InputRequiredResult };

/** Asks the human through elicitation; only an accept with `confirm: true` lets the call go on. */
async function askHuman(
  server: McpServer,
  ctx: ServerContext,
  era: 'legacy' | 'modern',
  options: ServerOptions,
  tool: ToolSpec,
  args: unknown,
  message: string,
): Promise<Answer> {
  const state = confirmationState(tool.name, args);
  if (era === 'modern') {
    const responses = ctx.mcpReq.inputResponses;
    const answer = responses?.confirm as { action?: unknown } | undefined;
    if (answer !== undefined) {
      // The retry must carry the state minted for these very arguments: a confirmation of one
      // refund never authorises another.
      if (ctx.mcpReq.requestState() !== state)
        return { refuse: 'the confirmation does not match this call; nothing was sent' };
      if (answer.action !== 'accept') return answer.action === 'decline' ? 'decline' : 'cancel';
      return acceptedContent(responses, 'confirm', ConfirmSchema)?.confirm === true
        ? 'accept'
        : 'decline';
    }
  }
  if (era === 'legacy' && options.legacyCannotElicit) {
    return {
      refuse: `${tool.name} needs a human to confirm it, and this client's protocol revision (2025-11-25) cannot be asked over this stateless HTTP endpoint; nothing was sent. Use stdio, or a client of revision 2026-07-28.`,
    };
  }
  // 2026-07-28 requests carry the client's capabilities in their envelope; 2025-era connections
  // declared them once, at initialize.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ??
    server.server.getClientCapabilities()) as { elicitation?: unknown } | undefined;
  if (capabilities?.elicitation === undefined) {
    return {
      refuse: `${tool.name} needs a human to confirm it, and this client does not support MCP elicitation (it declared no elicitation capability); nothing was sent. Use a client that supports elicitation, or do it outside the agent.`,
    };
  }
  if (era === 'modern') {
    return {
      ask: inputRequired({
        inputRequests: { confirm: inputRequired.elicit(confirmRequest(message)) },
        requestState: state,
      }),
    };
  }
  const result = await ctx.mcpReq.elicitInput(confirmRequest(message), {
    signal: ctx.mcpReq.signal,
  });
  if (result.action !== 'accept') return result.action === 'decline' ? 'decline' : 'cancel';
  return result.content?.confirm === true ? 'accept' : 'decline';
}

function text(value: unknown, secrets: readonly string[]): string {
  return redact(JSON.stringify(value, null, 2), secrets);
}

function refusal(message: string, secrets: readonly string[]): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: redact(`Refused: ${message}`, secrets) }],
  };
}

/** Runs one tool call: the policy first for writes, then the SDK, then one audit line for writes. */
async function guarded(
  server: McpServer,
  era: 'legacy' | 'modern',
  options: ServerOptions,
  tool: ToolSpec,
  args: unknown,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const { policy } = options;
  const write = tool.kind === 'write';
  // The arguments as validated (as sent; `{ id, options }` for an id tool): what the key and
  // the audit describe.
  const idempotencyKey = idempotencyKeyFor(tool.name, args);
  // The audit line carries the arguments as the tool was called (`paymentId`, not the `{ id,
  // options }` an id tool's schema makes of them), redacted.
  const calledAs = tool.calledAs === undefined ? args : tool.calledAs(args);
  const audit = (entry: Omit<AuditEntry, 'tool' | 'args'>) => {
    if (write) {
      policy.audit(auditLine({ tool: tool.name, args: calledAs, ...entry }, policy.secrets));
    }
  };
  const refuse = (reason: string, outcome: 'refused' | 'declined' = 'refused') => {
    audit({ outcome, reason });
    return refusal(reason, policy.secrets);
  };

  if (write) {
    if (tool.method === undefined || !policy.allowed.has(tool.method)) {
      return refuse(
        `${tool.name} is not allowed on this server, which is read-only for it: start the server with --allow ${tool.method ?? tool.name} (or --allow-writes); nothing was sent`,
      );
    }
    if (tool.amount !== undefined) {
      const over = amountRefusal(tool.amount(args)) ?? capRefusal(policy.cap, tool.amount(args));
      if (over !== undefined) return refuse(`${over}; nothing was sent`);
    }
    if (tool.confirm !== undefined) {
      const answer = await askHuman(server, ctx, era, options, tool, args, tool.confirm(args));
      if (typeof answer === 'object' && 'ask' in answer) return answer.ask;
      if (typeof answer === 'object') return refuse(answer.refuse);
      if (answer !== 'accept') {
        return refuse(
          `the human ${answer === 'decline' ? 'declined' : 'cancelled'} ${tool.name}; nothing was sent`,
          'declined',
        );
      }
    }
  }

  const progressToken = ctx.mcpReq._meta?.progressToken;
  // Notifications go out before the result: a client sees the final status's progress first.
  const sent: Promise<void>[] = [];
  const call: CallContext = {
    gateway: options.gateway,
    idempotencyKey,
    signal: ctx.mcpReq.signal,
    progress: (progress, total, message) => {
      if (progressToken === undefined) return;
      const params = {
        progressToken,
        progress,
        message,
        ...(total !== undefined ? { total } : {}),
      };
      sent.push(ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => {}));
    },
  };
  try {
    const outcome = tool.run(args, call);
    const { data, requestId } =
      'withResponse' in outcome
        ? await outcome.withResponse()
        : { data: await outcome, requestId: undefined };
    await Promise.all(sent);
    audit({
      outcome: 'ok',
      ...(write && tool.method !== 'refunds.create' ? { idempotencyKey } : {}),
      ...(requestId ? { requestId } : {}),
    });
    return {
      content: [{ type: 'text', text: text(data, policy.secrets) }],
      structuredContent: JSON.parse(redact(JSON.stringify(data), policy.secrets)) as Record<
        string,
        unknown
      >,
    };
  } catch (error) {
    const info = errorInfo(error);
    audit({
      outcome: 'error',
      ...(info.idempotencyKey ? { idempotencyKey: info.idempotencyKey } : {}),
      ...(info.requestId ? { requestId: info.requestId } : {}),
      error: {
        class: info.class,
        ...(info.code ? { code: info.code } : {}),
        ...(info.status ? { status: info.status } : {}),
      },
    });
    return {
      isError: true,
      content: [{ type: 'text', text: text({ error: info }, policy.secrets) }],
    };
  }
}

/** One McpServer with the policy's tools; `era` says which protocol the instance serves. */
export function createServer(options: ServerOptions, era: 'legacy' | 'modern'): McpServer {
  const server = new McpServer(
    { name: 'merchant-gateway-mcp', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Tools for the merchant payment gateway. Amounts are minor units as digit strings. Reading tools are always available; writing tools only where the operator allowed them, refunds and cancellations after a human confirms.',
    },
  );
  for (const tool of exposedTools(options.policy)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: {
          title: tool.title,
          readOnlyHint: tool.kind === 'read',
          destructiveHint: tool.method === 'refunds.create' || tool.method === 'payments.cancel',
          idempotentHint: tool.kind === 'read' || tool.method !== 'refunds.create',
          openWorldHint: true,
        },
      },
      (args, ctx) => guarded(server, era, options, tool, args, ctx),
    );
  }
  refuseWritesNotAllowed(server, era, options);
  return server;
}

type ToolsCallHandler = (request: CallToolRequest, ctx: ServerContext) => Promise<unknown>;

/**
 * A writing tool the server was not allowed is not listed (without flags only reading tools
 * exist), yet a call to it by name answers the tool error `Refused: … --allow <method> …` (and an
 * audit line), not the protocol's "Tool … not found": an agent learns the server is read-only and
 * which flag would change that. The McpServer's own `tools/call` handler answers every other call.
 */
function refuseWritesNotAllowed(
  server: McpServer,
  era: 'legacy' | 'modern',
  options: ServerOptions,
): void {
  const exposed = new Set(exposedTools(options.policy).map((tool) => tool.name));
  const refused = new Map(
    TOOLS.filter((tool) => tool.kind === 'write' && !exposed.has(tool.name)).map((tool) => [
      tool.name,
      tool,
    ]),
  );
  if (refused.size === 0) return;
  // The registered handler, through the protocol's accessor for it (the SDK has no public hook
  // for calls to unregistered tools); checked here so an SDK without it fails at start, loudly.
  const protocol = server.server as unknown as {
    _getRequestHandler?: (method: string) => ToolsCallHandler | undefined;
  };
  const registered = protocol._getRequestHandler?.call(server.server, 'tools/call');
  if (registered === undefined) {
    throw new Error('merchant-gateway-mcp: the MCP SDK has no tools/call handler to wrap');
  }
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = refused.get(request.params.name);
    if (tool !== undefined) {
      return (await guarded(
        server,
        era,
        options,
        tool,
        request.params.arguments ?? {},
        ctx,
      )) as CallToolResult;
    }
    return (await registered(request, ctx)) as CallToolResult;
  });
}

/** The factory both serving entries (stdio, HTTP) call per connection or request. */
export function serverFactory(options: ServerOptions): McpServerFactory {
  // Over HTTP a 2025-era request is served statelessly: the client's answer to an elicitation
  // would reach another instance, so those clients are told to confirm elsewhere.
  return ({ era, requestInfo }) =>
    createServer({ ...options, legacyCannotElicit: requestInfo !== undefined }, era);
}
