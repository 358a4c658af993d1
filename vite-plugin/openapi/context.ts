/**
 * What the OpenAPI generator shares across operations: the app's schemas, the
 * `components.schemas` being filled, and the resolution of a route's schema references (a
 * `priv/schemas/<name>` name → a `$ref` to its component; a Standard Schema object → its JSON
 * Schema, converted and inline, or nothing when the object offers none).
 */
import type { SchemaRef } from '../../server/contracts/routes.ts'
import type { JsonSchema, OpenApiVersion } from './schema.ts'
import { componentName, componentRef, requestVariant, requiresReadOnly, toOpenApiSchema } from './schema.ts'
import { standardJsonSchema } from './standard.ts'

/** A schema reference resolved for the document. */
export interface ResolvedSchema {
  /** What the document shows: a `$ref` to a component, or the converted schema inline. */
  readonly schema: JsonSchema
  /** The JSON Schema itself (the file, or what a Standard Schema object offered), to read properties from. */
  readonly source: JsonSchema
  /** The `priv/schemas` name, for a named schema. */
  readonly name?: string
}

/** The built-in error bodies: every error reply's `{ error }`, and the 422 `{ errors }` of validation. */
export const ERROR_COMPONENTS: Readonly<Record<'Error' | 'ValidationErrors', JsonSchema>> = {
  Error: {
    type: 'object',
    description: 'An error reply.',
    properties: { error: { type: 'string', description: 'What went wrong' } },
    required: ['error'],
  },
  ValidationErrors: {
    type: 'object',
    description: 'The request did not pass validation: the messages of each failing field, by field path.',
    properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
    required: ['errors'],
  },
}

export class DocContext {
  readonly components: Record<string, JsonSchema> = {}

  constructor(
    readonly version: OpenApiVersion,
    readonly schemas: Readonly<Record<string, JsonSchema>>,
  ) {
    for (const name of Object.keys(schemas).sort())
      this.components[componentName(name)] = this.convert(schemas[name]!, componentName(name))
  }

  /** `schema` converted for the document; its definitions become components named after `owner`. */
  convert(schema: JsonSchema, owner: string): JsonSchema {
    return toOpenApiSchema(
      schema,
      this.version,
      owner,
      (name, sub) => (this.components[name] ??= sub),
      (ref) => this.refType(ref),
    )
  }

  /** The `type` of the component a `$ref` points at (converted already, else the app's file), when known. */
  private refType(ref: string): string | undefined {
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1]
    if (name === undefined) return undefined
    const type = (this.components[name] ?? this.schemas[name])?.type
    return typeof type === 'string' ? type : undefined
  }

  /**
   * A route's reference as the document shows it, or `undefined` for a Standard Schema object
   * without a JSON Schema. `where` names the route and option for the error about a missing file,
   * and the components made from an inline schema's definitions.
   */
  resolve(
    ref: SchemaRef,
    direction: 'input' | 'output',
    where: { label: string; owner: string },
  ): ResolvedSchema | undefined {
    if (typeof ref === 'string') {
      if (!Object.hasOwn(this.schemas, ref))
        throw new Error(`${where.label} names the schema "${ref}", but there is no priv/schemas/${ref}.json`)
      return { schema: componentRef(componentName(ref)), source: this.schemas[ref]!, name: ref }
    }
    const source = standardJsonSchema(ref, direction, this.version)
    return source ? { schema: this.convert(source, componentName(where.owner)), source } : undefined
  }

  /**
   * A request body's schema: the schema itself, or a variant when the request must differ: PATCH
   * requires nothing (`<name>_patch`, the app's own file when it has one), and read-only
   * properties are never required in a request (`<name>_input`). A schema that already requires
   * nothing, or that is such a variant by name, is used as it is: no `<name>_patch_patch`.
   */
  requestBody(resolved: ResolvedSchema, method: string): JsonSchema {
    const partial = method === 'patch'
    const requires = Array.isArray(resolved.source.required) && resolved.source.required.length > 0
    if (partial ? !requires : !requiresReadOnly(resolved.source)) return resolved.schema
    if (!resolved.name) return requestVariant(resolved.schema, partial)
    const suffix = partial ? '_patch' : '_input'
    // The app's own `<name>_patch` (or `_input`) file is the variant already: documented as it is.
    if (resolved.name.endsWith(suffix)) return resolved.schema
    const variant = componentName(`${resolved.name}${suffix}`)
    if (!Object.hasOwn(this.components, variant))
      this.components[variant] = requestVariant(this.components[componentName(resolved.name)]!, partial)
    return componentRef(variant)
  }

  /** A `$ref` to a built-in error body, added to the components on first use (an app schema of that name wins). */
  error(name: keyof typeof ERROR_COMPONENTS): JsonSchema {
    this.components[name] ??= ERROR_COMPONENTS[name]
    return componentRef(name)
  }
}
