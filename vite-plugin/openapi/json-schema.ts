/**
 * A JSON Schema (or OpenAPI schema object) as plain data. Its own module so that schema.ts, which
 * converts schemas, and nullable.ts, which it calls, both name it without importing each other.
 */
export type JsonSchema = Record<string, unknown>
