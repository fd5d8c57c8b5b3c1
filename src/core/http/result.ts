// Step "read the result" of a call: a 2xx body parsed as JSON and checked against the schema.
import * as z from 'zod/mini';
import type { WithResponse } from '../api-promise';
import { ResponseValidationError, type ValidationIssue } from '../errors/base';
import { MAX_VALUE_DEPTH, type Redactor } from '../safety/redact';
import { toIssues } from '../validate';
import type { RequestSpec } from './spec';

/** The 2xx body `text` as the call's result, or a ResponseValidationError (redacted) saying why not. */
export function parseResult<S extends z.ZodMiniType, T>(
  spec: RequestSpec<S, T>,
  label: string,
  response: Response,
  text: string,
  idempotencyKey: string | undefined,
  redactor: Redactor,
): WithResponse<T> {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const fail = (issues: ValidationIssue[], body: unknown) =>
    new ResponseValidationError(label, {
      issues,
      body: redactor.value(body, MAX_VALUE_DEPTH),
      status: response.status,
      requestId,
      changesState: spec.method !== 'GET' && spec.readOnly !== true,
      idempotencyKey,
    });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail([{ field: '', message: text === '' ? 'body is empty' : 'body is not JSON' }], text);
  }
  const result = z.safeParse(spec.response, json);
  if (!result.success) throw fail(toIssues(result.error), json);
  const data = spec.select(result.data);
  return requestId === undefined ? { data, response } : { data, response, requestId };
}
