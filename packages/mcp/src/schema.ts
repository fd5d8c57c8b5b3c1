// Tool schemas from the SDK's own zod schemas: the SDK validates with them, the MCP server
// advertises their JSON Schema, so an agent sees exactly the rules the SDK enforces.
import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import * as z from 'zod/mini';

type JsonObject = Record<string, unknown>;
/** A tool's input or output schema: Standard Schema validation plus its JSON Schema. */
export type ToolSchema<T> = StandardSchemaWithJSON<unknown, T>;
/** Field descriptions an agent reads, by property name (`amount.value` for a nested one). */
export type Notes = Readonly<Record<string, string>>;

function annotate(json: JsonObject, notes: Notes, prefix = ''): JsonObject {
  const properties = json.properties as Record<string, JsonObject> | undefined;
  if (properties === undefined) return json;
  for (const [key, property] of Object.entries(properties)) {
    const path = `${prefix}${key}`;
    const note = notes[path];
    if (note !== undefined) property.description = note;
    annotate(property, notes, `${path}.`);
  }
  return json;
}

/**
 * What JSON cannot say (a Date or bigint the SDK also accepts) comes out as `{}`: dropped from a
 * union with other members, since an agent sends JSON anyway. The SDK's request objects reject
 * unknown fields (zod reports them as loose objects with a check): said as such on inputs.
 */
function tidy(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item, io));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node as JsonObject)) out[key] = tidy(value, io);
  const isEmpty = (v: unknown) =>
    typeof v === 'object' && v !== null && Object.keys(v).length === 0;
  if (Array.isArray(out.anyOf)) {
    const members = (out.anyOf as unknown[]).filter((member) => !isEmpty(member));
    if (members.length === 1) {
      delete out.anyOf;
      Object.assign(out, members[0]);
    } else if (members.length > 1) out.anyOf = members;
  }
  if (io === 'input' && isEmpty(out.additionalProperties)) out.additionalProperties = false;
  return out;
}

function jsonOf(schema: z.ZodMiniType, io: 'input' | 'output', notes: Notes): JsonObject {
  const json = tidy(z.toJSONSchema(schema, { io, unrepresentable: 'any' }), io) as JsonObject;
  delete json.$schema;
  return annotate(json, notes);
}

function standard<T>(
  validate: (value: unknown) => StandardSchemaV1.Result<T> | Promise<StandardSchemaV1.Result<T>>,
  json: (io: 'input' | 'output') => JsonObject,
): ToolSchema<T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'merchant-gateway-mcp',
      validate,
      jsonSchema: { input: () => json('input'), output: () => json('output') },
    },
  };
}

/**
 * One of the SDK's exported zod schemas as a tool schema, with descriptions for the agent. A
 * valid value is handed on as it came (the SDK's input type): the SDK parses it itself.
 */
export function fromSdk<S extends z.ZodMiniType>(
  schema: S,
  notes: Notes = {},
): ToolSchema<z.input<S>> {
  return standard(
    async (value) => {
      const result = await schema['~standard'].validate(value);
      return result.issues ? { issues: result.issues } : { value: value as z.input<S> };
    },
    (io) => jsonOf(schema, io, notes),
  );
}

/**
 * A tool input of one id field (`paymentId`) beside the fields of an SDK options schema
 * (`PaymentStatusParamsSchema`): the SDK takes them as two arguments, an agent as one object.
 */
export function withId<K extends string, S extends z.ZodMiniType>(
  key: K,
  idSchema: z.ZodMiniType<string>,
  options: S,
  notes: Notes = {},
): ToolSchema<{ id: string; options: z.input<S> }> {
  return standard(
    async (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { issues: [{ message: 'arguments must be an object' }] };
      }
      const { [key]: id, ...rest } = value as Record<string, unknown>;
      const issues: StandardSchemaV1.Issue[] = [];
      const idResult = await idSchema['~standard'].validate(id);
      if (idResult.issues) {
        for (const issue of idResult.issues) issues.push({ message: issue.message, path: [key] });
      }
      const optionsResult = await options['~standard'].validate(rest);
      if (optionsResult.issues) issues.push(...optionsResult.issues);
      if (idResult.issues || optionsResult.issues) return { issues };
      return { value: { id: idResult.value, options: rest as z.input<S> } };
    },
    (io) => {
      const json = jsonOf(options, io, notes);
      const idJson = jsonOf(idSchema, io, {});
      idJson.description = notes[key] ?? key;
      json.properties = { [key]: idJson, ...(json.properties as JsonObject | undefined) };
      json.required = [key, ...((json.required as string[] | undefined) ?? [])];
      return json;
    },
  );
}
