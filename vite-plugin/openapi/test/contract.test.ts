// The OpenAPI document of an app using every feature it describes (fixtures/openapi-app):
// parameters and bodies from `validate`, responses per status, the server's own errors, security
// schemes from the groups, tags, the draft-07 → 3.0.3 conversion and the 3.1 option.
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import type { VelaApp } from '../../../server/app/create-app.ts'
import { csrfPlugin, json } from '../../../server/index.ts'
import { until } from '../../../test/support/until.ts'
import { openApiStep } from '../../dev/dev-openapi.ts'
import type { StandardSchemaV1 } from '../../../server/index.ts'
import type { LoadedApp } from '../../cli/commands/load.ts'
import { inspectApp, loadApp } from '../../cli/commands/load.ts'
import type { OpenApiDocument } from '../document.ts'
import { buildOpenApi } from '../document.ts'
import { toOpenApiSchema } from '../schema.ts'
import { loadSchemas, packageInfo } from '../write.ts'
import { runCli } from '../../cli/commands/test/run-cli.ts'

const APP = fileURLToPath(new URL('./fixtures/openapi-app', import.meta.url))
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const h = () => json({})
const statuses = (d: OpenApiDocument, path: string, method: string) =>
  Object.keys(d.paths[path]![method]!.responses).map(Number)

let app: LoadedApp
let doc: OpenApiDocument
let doc31: OpenApiDocument
beforeAll(async () => {
  app = await loadApp(APP)
  const schemas = await loadSchemas(APP)
  doc = buildOpenApi(app.table, { title: 'Work orders', version: '1.0.0', schemas })
  doc31 = buildOpenApi(app.table, { title: 'Work orders', version: '1.0.0', schemas, openapi: '3.1', license: 'MIT' })
}, 120_000)

describe('parameters and request bodies', () => {
  it('query and header parameters, one per property of validate.query / validate.headers, required from the schema', () => {
    const params = doc.paths['/api/work_orders']!.get!.parameters!
    expect(params.map((p) => [p.in, p.name, p.required])).toEqual([
      ['query', 'status', false],
      ['query', 'limit', false],
      ['query', 'offset', false],
      ['query', 'tag', false],
      ['header', 'x-tenant', true],
      ['header', 'x-request-id', false],
    ])
    expect(params.find((p) => p.name === 'limit')!.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 20,
    })
    expect(params.find((p) => p.name === 'tag')!.schema).toMatchObject({ type: 'array', items: { type: 'string' } })
    // A property referring to its file's definitions points at the component they became.
    expect(params.find((p) => p.name === 'status')!.schema).toEqual(ref('work_order_filters_status'))
    expect(doc.components.schemas.work_order_filters_status).toEqual({
      type: 'string',
      enum: ['open', 'closed'],
      description: 'Only work orders in this status',
    })
  })

  it('path parameters are typed by validate.params, strings without it', () => {
    expect(doc.paths['/api/work_orders/{id}']!.get!.parameters).toEqual([
      {
        name: 'id',
        in: 'path',
        required: true,
        schema: { type: 'integer', minimum: 1, description: "The work order's id" },
        description: "The work order's id",
      },
    ])
  })

  it('request bodies: read-only properties not required (POST, PUT), nothing required for PATCH', () => {
    const body = (method: string, path = '/api/work_orders/{id}') =>
      doc.paths[path]![method]!.requestBody!.content['application/json']!.schema
    expect(body('post', '/api/work_orders')).toEqual(ref('work_order_input'))
    expect(body('put')).toEqual(ref('work_order_input'))
    expect(body('patch')).toEqual(ref('work_order_patch'))
    expect(doc.components.schemas.work_order!.required).toEqual(['id', 'title', 'status', 'inserted_at'])
    expect(doc.components.schemas.work_order_input!.required).toEqual(['title', 'status'])
    expect(doc.components.schemas.work_order_patch).not.toHaveProperty('required')
    expect(doc.components.schemas.work_order_patch!.properties).toEqual(doc.components.schemas.work_order!.properties)
    // The app's own `<name>_patch` file is the PATCH body as it is: no `<name>_patch_patch`.
    expect(body('patch', '/api/work_orders/{id}/assignee')).toEqual(ref('assignment_patch'))
    expect(doc.components.schemas.assignment_patch!.required).toEqual(['assignee'])
    expect(Object.keys(doc.components.schemas).filter((name) => name.endsWith('_patch_patch'))).toEqual([])
    // A Standard Schema body that requires nothing already is used as it is.
    expect(body('patch', '/api/work_orders/{id}/notes')).not.toHaveProperty('required')
  })

  it("3.0.3: a zod .nullable() field is its type with nullable: true, never a branch of type 'null'", () => {
    const note = doc.paths['/api/work_orders/{id}/notes']!.post!.requestBody!.content['application/json']!.schema!
    expect(note.properties).toEqual({
      text: { type: 'string' },
      due: { type: 'string', nullable: true },
      rank: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number), nullable: true },
    })
    expect(JSON.stringify(doc)).not.toContain('"null"')
  })

  it("a form body is documented with the media type the route's request plugin reads; a Standard Schema object without a JSON Schema gives no schema", () => {
    expect(doc.paths['/contact']!.post!.requestBody).toEqual({
      required: true,
      content: { 'application/x-www-form-urlencoded': {} },
    })
  })
})

describe('responses', () => {
  it("the route's responses option per status: a priv/schemas name, or a Standard Schema object's JSON Schema", () => {
    expect(doc.paths['/api/work_orders']!.get!.responses[200]).toEqual({
      description: 'OK',
      content: { 'application/json': { schema: ref('work_order_list') } },
    })
    expect(doc.paths['/api/work_orders/summary']!.get!.responses[200]!.content!['application/json']!.schema).toEqual({
      type: 'object',
      properties: { open: { type: 'integer' }, closed: { type: 'integer' } },
      required: ['open', 'closed'],
    })
    // `$ref: "work_order.json"` in a schema file points at that file's component.
    expect((doc.components.schemas.work_order_list!.properties as Record<string, unknown>).work_orders).toEqual({
      type: 'array',
      items: ref('work_order'),
    })
  })

  it("the server's own errors, where they can happen", () => {
    // JSON body + bearer: malformed JSON, auth, too large, unreadable type, validation, crash.
    // A bearer check answers 401 (its `false`), never 403.
    expect(statuses(doc, '/api/work_orders', 'post')).toEqual([201, 400, 401, 413, 415, 422, 500])
    // A path parameter: 404; validate.params: 422.
    expect(statuses(doc, '/api/work_orders/{id}', 'get')).toEqual([200, 401, 404, 422, 500])
    expect(statuses(doc, '/api/work_orders/{id}', 'delete')).toEqual([204, 401, 404, 422, 500])
    // A rate limit in the group's pipeline: 429.
    expect(statuses(doc, '/admin/stats', 'get')).toEqual([200, 401, 429, 500])
    // Open, no body, no parameter: only a crash.
    expect(statuses(doc, '/health', 'get')).toEqual([200, 500])
    const post = doc.paths['/api/work_orders']!.post!.responses
    expect(post[422]).toEqual({
      description: 'Unprocessable Content',
      content: { 'application/json': { schema: ref('ValidationErrors') } },
    })
    expect(post[415]).toEqual({
      description: 'Unsupported Media Type',
      content: { 'application/json': { schema: ref('Error') } },
    })
    expect(doc.components.schemas.Error).toEqual({
      type: 'object',
      description: 'An error reply.',
      properties: { error: { type: 'string', description: 'What went wrong' } },
      required: ['error'],
    })
    expect(doc.components.schemas.ValidationErrors).toMatchObject({
      properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
      required: ['errors'],
    })
  })
})

describe('security, tags, info', () => {
  it("each group's scheme under components.securitySchemes and on its operations; open groups say security: []", () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      basicAuth: { type: 'http', scheme: 'basic' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
    })
    expect(doc.paths['/api/work_orders']!.get!.security).toEqual([{ bearerAuth: [] }])
    expect(doc.paths['/admin/stats']!.get!.security).toEqual([{ basicAuth: [] }])
    expect(doc.paths['/account']!.get!.security).toEqual([{ sessionCookie: [] }])
    expect(doc.paths['/health']!.get!.security).toEqual([])
  })

  it('a group with a plain callback: 401 and 403, no security requirement, a description saying why', () => {
    const { table } = inspectApp({
      bootstrapApplication: 'x',
      routes: { r: { prefix: '', security: () => true, routes: [['GET /me', () => json({})]] } },
    })
    const op = buildOpenApi(table, { title: 'x', version: '1', schemas: {} }).paths['/me']!.get!
    expect(op).not.toHaveProperty('security')
    expect(op.description).toMatch(/own security callback/)
    expect(Object.keys(op.responses)).toEqual(['200', '401', '403', '500'])
  })

  it('403 is listed where something can answer it: a plain callback, a scheme with scopes, the CSRF check', () => {
    const check = () => true
    const d = (groups: unknown) =>
      buildOpenApi(inspectApp({ bootstrapApplication: 'x', routes: { r: groups as never } }).table, {
        title: 'x',
        version: '1',
        schemas: {},
      })
    const flows = { clientCredentials: { tokenUrl: '/token', scopes: { read: 'read' } } }
    const doc403 = d([
      { prefix: '/bearer', security: { scheme: { type: 'http', scheme: 'bearer' }, check }, routes: [['GET /', h]] },
      {
        prefix: '/key',
        security: { scheme: { type: 'apiKey', in: 'header', name: 'X-Key' }, check },
        routes: [['GET /', h]],
      },
      { prefix: '/oauth', security: { scheme: { type: 'oauth2', flows }, check }, routes: [['GET /', h]] },
      {
        prefix: '/forms',
        security: false,
        plugins: [['pre_request', csrfPlugin, { exclude: ['/forms/api'] }]],
        routes: [
          ['GET /page', h],
          ['POST /page', h],
          ['POST /api/hook', h],
        ],
      },
    ])
    const has403 = (path: string, method = 'get') => Object.hasOwn(doc403.paths[path]![method]!.responses, '403')
    expect(has403('/bearer')).toBe(false)
    expect(has403('/key')).toBe(false)
    expect(has403('/oauth')).toBe(true)
    // The CSRF check refuses unsafe methods on paths it does not exclude.
    expect(has403('/forms/page')).toBe(false)
    expect(has403('/forms/page', 'post')).toBe(true)
    expect(has403('/forms/api/hook', 'post')).toBe(false)
  })

  it('every operation tag is declared at the top level; info has a description; one server', () => {
    const used = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((o) => o.tags)))
    expect(doc.tags.map((t) => t.name).sort()).toEqual([...used].sort())
    expect(doc.tags.every((t) => t.description.length > 0)).toBe(true)
    expect(doc.info.description).toBe('The HTTP API of Work orders.')
    expect(doc.servers).toEqual([{ url: '/' }])
  })

  it("info.description and info.license come from the app's package.json", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vela-openapi-pkg-'))
    try {
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({ description: 'Work orders API', license: 'Apache-2.0' }),
      )
      const info = await packageInfo(dir)
      expect(info).toEqual({ description: 'Work orders API', license: 'Apache-2.0' })
      const d = buildOpenApi(app.table, { title: 't', version: '1', schemas: await loadSchemas(APP), ...info })
      expect(d.info).toEqual({
        title: 't',
        version: '1',
        description: 'Work orders API',
        license: { name: 'Apache-2.0', url: 'https://spdx.org/licenses/Apache-2.0.html' },
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('JSON Schema for OpenAPI 3.0.3 and 3.1.0', () => {
  it('3.0.3: draft-07 keywords converted (const, nullable types, examples, exclusive bounds, tuples, definitions)', () => {
    const props = doc.components.schemas.work_order!.properties as Record<string, unknown>
    expect(doc.components.schemas.work_order).not.toHaveProperty('$schema')
    expect(doc.components.schemas.work_order).not.toHaveProperty('$id')
    expect(doc.components.schemas.work_order).not.toHaveProperty('definitions')
    expect(props.kind).toEqual({ enum: ['work_order'] })
    expect(props.assignee).toEqual({ type: 'string', nullable: true, description: 'Who works on it, if anyone' })
    expect(props.title).toEqual({ type: 'string', minLength: 1, example: 'Fix the boiler' })
    expect(props.priority).toEqual({ type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 5 })
    expect(props.location).toEqual({
      type: 'array',
      items: { type: 'number' },
      minItems: 2,
      maxItems: 2,
      description: 'Latitude, longitude',
    })
    expect(props.status).toEqual(ref('work_order_status'))
    expect(doc.components.schemas.work_order_status).toEqual({ type: 'string', enum: ['open', 'closed'] })
  })

  it('more conversions: several types, null, boolean sub-schemas, dropped keywords, refs to other files', () => {
    const hoisted: Record<string, unknown> = {}
    const converted = toOpenApiSchema(
      {
        type: 'object',
        properties: {
          a: { type: ['string', 'integer', 'null'] },
          b: { type: 'null' },
          c: true,
          d: false,
          e: { enum: ['x', null] },
          f: { $ref: 'other.json#/definitions/g' },
        },
        additionalProperties: false,
        if: { required: ['a'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords
        then: { required: ['b'] },
        patternProperties: { '^x': { type: 'string' } },
        $defs: { h: { const: 1 } },
      },
      '3.0',
      'thing',
      (name, schema) => (hoisted[name] = schema),
    )
    expect(converted).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        a: {
          anyOf: [
            { type: 'string', nullable: true },
            { type: 'integer', nullable: true },
          ],
        },
        b: { type: 'object', nullable: true, enum: [null] },
        c: {},
        d: { not: {} },
        e: { type: 'string', enum: ['x', null], nullable: true },
        f: ref('other_g'),
      },
    })
    expect(hoisted).toEqual({ thing_h: { enum: [1] } })
  })

  it('3.0.3: a choice with a null branch becomes nullable beside a type; a $ref keeps its type through allOf', () => {
    const types: Record<string, string> = { '#/components/schemas/status': 'string' }
    const convert = (schema: unknown) =>
      toOpenApiSchema(
        schema,
        '3.0',
        'thing',
        () => {},
        (r) => types[r],
      )
    const nullBranch = { type: 'null' }
    expect(convert({ anyOf: [{ type: 'integer', minimum: 1 }, nullBranch], description: 'Rank' })).toEqual({
      type: 'integer',
      minimum: 1,
      nullable: true,
      description: 'Rank',
    })
    // An enum gets null among its values too, or null would still be refused.
    expect(convert({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, nullBranch] })).toEqual({
      type: 'string',
      enum: ['a', 'b', null],
      nullable: true,
    })
    expect(convert({ oneOf: [{ type: 'string' }, { type: 'number' }, nullBranch] })).toEqual({
      oneOf: [
        { type: 'string', nullable: true },
        { type: 'number', nullable: true },
      ],
    })
    expect(convert({ anyOf: [{ $ref: 'status.json' }, nullBranch] })).toEqual({
      allOf: [ref('status')],
      type: 'string',
      nullable: true,
    })
    // A reference whose type is unknown: the reference, or null and nothing else.
    expect(convert({ anyOf: [{ $ref: 'other.json' }, nullBranch] })).toEqual({
      anyOf: [ref('other'), { type: 'object', nullable: true, enum: [null] }],
    })
    // Every `nullable` stands beside a `type`.
    const all = JSON.stringify(convert({ anyOf: [{ $ref: 'other.json' }, nullBranch] }))
    expect(all).not.toContain('"null"')
  })

  it('3.1.0: JSON Schema as it is (only $schema / $id dropped and references rewritten); license by SPDX identifier', () => {
    expect(doc31.openapi).toBe('3.1.0')
    expect(doc31.info.license).toEqual({ name: 'MIT', identifier: 'MIT' })
    const props = doc31.components.schemas.work_order!.properties as Record<string, unknown>
    expect(props.kind).toEqual({ const: 'work_order' })
    expect(props.assignee).toEqual({ type: ['string', 'null'], description: 'Who works on it, if anyone' })
    expect(props.title).toEqual({ type: 'string', minLength: 1, examples: ['Fix the boiler'] })
    expect(props.priority).toEqual({ type: 'integer', exclusiveMinimum: 0, maximum: 5 })
    expect(props.status).toEqual(ref('work_order_status'))
    expect(doc31.components.schemas.work_order).not.toHaveProperty('$id')
  })

  it("the plugin's openapi option reaches the document the dev server writes", async () => {
    const root = await mkdtemp(join(tmpdir(), 'vela-openapi-dev-'))
    try {
      await cp(join(APP, 'priv/schemas'), join(root, 'priv/schemas'), { recursive: true })
      const step = openApiStep(root, () => undefined, '3.1')
      step({ config: { bootstrapApplication: 'work_orders' }, routeTable: app.table } as unknown as VelaApp)
      const file = join(root, 'priv/assets/openapi.json')
      // The explorer's last file is written after the document: the step is done.
      await until(
        'the dev server wrote the document and its explorer',
        () => existsSync(join(root, 'priv/assets/swagger-ui-bundle.js')),
        30_000,
      )
      expect(JSON.parse(await readFile(file, 'utf8')).openapi).toBe('3.1.0')
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  }, 60_000)

  it('`vela openapi --openapi 3.1` writes 3.1.0; another version is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vela-openapi-31-'))
    try {
      const out = join(dir, 'openapi.json')
      const res = await runCli(['openapi', '--root', APP, '--output', out, '--openapi', '3.1'])
      expect(res.code).toBe(0)
      expect(JSON.parse(await readFile(out, 'utf8')).openapi).toBe('3.1.0')
      const bad = await runCli(['openapi', '--root', APP, '--output', out, '--openapi', '2.0'])
      expect(bad.code).toBe(1)
      expect(bad.stderr).toContain('--openapi must be 3.0 or 3.1')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 240_000)
})

describe('Standard Schema objects', () => {
  const base = { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) }
  const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }
  const docFor = (query: StandardSchemaV1) => {
    const { table } = inspectApp({
      bootstrapApplication: 'x',
      routes: {
        r: {
          prefix: '',
          security: false,
          routes: [['GET /find', () => json({}), { validate: { query } }]],
        },
      },
    })
    return buildOpenApi(table, { title: 'x', version: '1', schemas: {} }).paths['/find']!.get!
  }

  it('their JSON Schema is read from ~standard.jsonSchema, a toJSONSchema() method or a jsonSchema property', () => {
    const targets: string[] = []
    const viaStandard = {
      '~standard': {
        ...base,
        jsonSchema: { input: ({ target }: { target: string }) => (targets.push(target), schema), output: () => ({}) },
      },
    }
    const viaMethod = { '~standard': base, toJSONSchema: () => schema }
    const viaProperty = { '~standard': base, jsonSchema: schema }
    for (const s of [viaStandard, viaMethod, viaProperty])
      expect(docFor(s as StandardSchemaV1).parameters).toEqual([
        { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
      ])
    expect(targets).toEqual(['draft-07'])
  })

  it('one without a JSON Schema, or whose library throws, documents no parameters', () => {
    const throwing = {
      '~standard': {
        ...base,
        jsonSchema: {
          input: () => {
            throw new Error('transforms cannot be represented')
          },
        },
      },
    }
    for (const s of [{ '~standard': base }, throwing])
      expect(docFor(s as StandardSchemaV1)).not.toHaveProperty('parameters')
  })

  it('responses: { 302: null } documents a reply without a body, and a redirecting route no conventional success', () => {
    const { table } = inspectApp({
      bootstrapApplication: 'x',
      routes: {
        r: {
          prefix: '',
          security: false,
          routes: [['POST /go', () => json({}), { responses: { 302: null } }]],
        },
      },
    })
    const responses = buildOpenApi(table, { title: 'x', version: '1', schemas: {} }).paths['/go']!.post!.responses
    expect(responses['302']).toEqual({ description: 'Found' })
    expect(Object.keys(responses)).not.toContain('201')
  })

  it('a name without its priv/schemas file is an error naming the route, at start before any document', () => {
    const app = {
      bootstrapApplication: 'x',
      routes: {
        r: {
          prefix: '',
          security: false,
          routes: [['POST /x', () => json({}), { validate: { body: 'nope' } }]],
        },
      },
    } as const
    expect(() => inspectApp(app as never)).toThrow(
      /\(\/x\): validate\.body names priv\/schemas\/nope\.json, which does not exist/,
    )
  })
})
