/**
 * JSON as the service writes its webhook bodies: a space after each `:` and `,` between values
 * (the form of its documented test vector), never the form `JSON.stringify` gives. A receiver that
 * verifies `JSON.stringify(JSON.parse(body))` instead of the raw body then fails against the mock
 * exactly as it would against the service. Plain JSON values only (no `toJSON`, no cycles).
 */
export function serviceJson(value: unknown): string {
  if (Array.isArray(value)) {
    // As JSON.stringify: an undefined item is written null.
    return `[${value.map((item) => (item === undefined ? 'null' : serviceJson(item))).join(', ')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const members: string[] = [];
    for (const [key, member] of Object.entries(value)) {
      // As JSON.stringify: an undefined member is left out.
      if (member !== undefined) members.push(`${JSON.stringify(key)}: ${serviceJson(member)}`);
    }
    return `{${members.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
