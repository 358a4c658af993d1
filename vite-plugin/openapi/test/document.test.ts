import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staticDir, status } from '../../../server/index.ts'
import { inspectApp } from '../../cli/commands/load.ts'
import type { OpenApiDocument } from '../document.ts'
import { buildOpenApi, openApiPath } from '../document.ts'
import { swaggerHtml } from '../explorer.ts'
import { FIXTURE, PLAYGROUND, runCli } from '../../cli/commands/test/run-cli.ts'

const h = () => status(200)
const widgets = {
  index: () => status(200),
  show: () => status(200),
  create: () => status(201),
  update: () => status(200),
  remove: () => status(204),
}
const orders = { show: () => status(200) }
const boom = () => status(500)
const widget = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['name'] }
const { table } = inspectApp({
  bootstrapApplication: 'shop',
  routes: {
    'src/routes/api.ts': {
      prefix: '/api',
      security: false,
      routes: [
        ['GET /widgets', widgets.index],
        ['GET /widgets/:id', widgets.show],
        ['POST /widgets', widgets.create],
        ['/widgets/:id', widgets.update, { methods: ['put', 'patch'] }],
        ['DELETE /widgets/:id', widgets.remove],
        ['GET /shops/:shopId/orders/:id', orders.show],
        ['/docs/[...]', staticDir('priv/assets')],
        ['GET /fail', boom],
      ],
    },
  },
  controllers: {
    'src/controllers/widgets_controller.ts': widgets,
    'src/controllers/orders_controller.ts': orders,
    'src/controllers/error_controller.ts': { boom },
  },
})
const errorBody = (name: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } })
const serverError = { description: 'Internal Server Error', content: errorBody('Error') }
const notFound = { description: 'Not Found', content: errorBody('Error') }
const doc = (): OpenApiDocument =>
  buildOpenApi(table, {
    title: 'Shop',
    version: '1.2.3',
    schemas: { widget: { $schema: 'http://json-schema.org/draft-07/schema#', ...widget } },
  })

describe('openapi document', () => {
  it('helpers: :param → {param}', () => {
    expect(openApiPath('/api/shops/:shopId/orders/:id')).toEqual({
      path: '/api/shops/{shopId}/orders/{id}',
      params: ['shopId', 'id'],
    })
    expect(openApiPath('/files/[...]')).toEqual({ path: '/files/{path}', params: ['path'] })
  })

  it('a controller is tied to its schema by the English singular: boxes ↔ box, people ↔ person, status ↔ status', () => {
    // Distinct functions: a handler's identity is the controller that exports it.
    const controllers = {
      boxes_controller: { show: () => status(200) },
      people_controller: { show: () => status(200) },
      status_controller: { show: () => status(200) },
    }
    const { table: t } = inspectApp({
      bootstrapApplication: 's',
      routes: {
        'src/routes/r.ts': {
          prefix: '',
          security: false,
          routes: Object.keys(controllers).map(
            (c) => [`GET /${c}/:id`, controllers[c as keyof typeof controllers].show] as const,
          ),
        },
      },
      controllers: Object.fromEntries(Object.entries(controllers).map(([c, m]) => [`src/controllers/${c}.ts`, m])),
    })
    const d = buildOpenApi(t, { title: 't', version: '1', schemas: { box: widget, person: widget, status: widget } })
    const refOf = (path: string) => JSON.stringify(d.paths[path]!.get!.responses)
    expect(refOf('/boxes_controller/{id}')).toContain('#/components/schemas/box"')
    expect(refOf('/people_controller/{id}')).toContain('#/components/schemas/person"')
    expect(refOf('/status_controller/{id}')).toContain('#/components/schemas/status"')
  })

  it('info, paths with operationIds, path params, convention-tied schema, responses per rule 5, components', () => {
    const d = doc()
    expect(d.openapi).toBe('3.0.3')
    expect(d.info).toEqual({ title: 'Shop', version: '1.2.3', description: 'The HTTP API of Shop.' })
    expect(Object.keys(d.paths)).toEqual(['/api/widgets', '/api/widgets/{id}', '/api/shops/{shopId}/orders/{id}'])
    const list = d.paths['/api/widgets']!
    expect(list.get).toMatchObject({ operationId: 'widgets_controller.index', tags: ['widgets_controller'] })
    expect(list.post).toMatchObject({ operationId: 'widgets_controller.create' })
    expect(list.get!.responses).toEqual({
      200: {
        description: 'OK',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { widgets: { type: 'array', items: { $ref: '#/components/schemas/widget' } } },
            },
          },
        },
      },
      500: serverError,
    })
    expect(list.post!.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/widget' } } },
    })
    expect(list.post!.responses).toMatchObject({
      201: {
        description: 'Created',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/widget' } } },
      },
    })
    const one = d.paths['/api/widgets/{id}']!
    expect(Object.keys(one)).toEqual(['get', 'put', 'patch', 'delete'])
    expect(Object.values(one).map((o) => o.operationId)).toEqual([
      'widgets_controller.show',
      'widgets_controller.update',
      'widgets_controller.update.patch',
      'widgets_controller.remove',
    ])
    expect(one.put!.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/widget' } } },
    })
    expect(one.get!.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }])
    expect((one.get!.responses as Record<number, { description: string }>)[200]!.description).toBe('OK')
    expect(one.delete!.responses).toEqual({ 204: { description: 'No Content' }, 404: notFound, 500: serverError })
    // orders_controller has no priv/schemas/order.json: plain 200 OK, two path params.
    expect(d.paths['/api/shops/{shopId}/orders/{id}']!.get).toEqual({
      operationId: 'orders_controller.show',
      summary: 'show (orders_controller)',
      tags: ['orders_controller'],
      security: [],
      parameters: ['shopId', 'id'].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      responses: { 200: { description: 'OK' }, 404: notFound, 500: serverError },
    })
    // The widget schema, the partial variant PATCH takes, the built-in error bodies.
    expect(d.components.schemas).toEqual({
      widget,
      widget_patch: { type: 'object', properties: widget.properties },
      Error: expect.any(Object),
      ValidationErrors: expect.any(Object),
    })
  })

  it('operationIds are unique: a repeated handler gets .<method>', () => {
    const ids = Object.values(doc().paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId))
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toHaveLength(7)
  })

  it('skips static-file and error-controller routes', () => {
    const paths = Object.keys(doc().paths)
    expect(paths.some((p) => p.includes('docs') || p.includes('fail'))).toBe(false)
  })

  it('options.schema wins over the convention; no schema means statuses without content', () => {
    const t = inspectApp({
      bootstrapApplication: 'x',
      routes: {
        r: {
          prefix: '',
          security: false,
          routes: [
            ['POST /things', h, { schema: 'widget' }],
            ['GET /other', () => status(200)],
          ],
        },
      },
      controllers: { 'src/controllers/gadgets_controller.ts': { make: h } },
    }).table
    const d = buildOpenApi(t, { title: 'x', version: '0.1.0', schemas: { widget, gadget: widget } })
    expect(d.paths['/things']!.post!.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/widget' } } },
    })
    expect(d.paths['/other']!.get!.responses).toEqual({ 200: { description: 'OK' }, 500: serverError })
  })

  it('the explorer page loads swagger-ui from the files beside it and the document by name', () => {
    const html = swaggerHtml('A <b> app', 'api.json')
    expect(html).toContain('<link rel="stylesheet" href="./swagger-ui.css">')
    expect(html).toContain('<script src="./swagger-ui-bundle.js"></script>')
    expect(html).toContain('<script src="./swagger-initializer.js"></script>')
    expect(html).toContain('data-url="./api.json"')
    // Nothing inline: the page passes a Content-Security-Policy without 'unsafe-inline'.
    expect(html).not.toMatch(/<script>|<style|style=/)
    expect(html).toContain('A &#60;b&#62; app')
    expect(html).not.toMatch(/https?:\/\//)
  })
})

describe('vela openapi (end to end)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vela-openapi-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('writes openapi.json, swagger.html and its assets; one Generated line per file', async () => {
    const out = join(dir, 'fixture', 'api.json')
    const res = await runCli([
      'openapi',
      '--root',
      FIXTURE,
      '--output',
      out,
      '--title',
      'Fixture API',
      '--api-version',
      '2.0.0',
    ])
    expect(res.stderr).toBe('')
    expect(res.code).toBe(0)
    const files = ['api.json', 'swagger.html', 'swagger-initializer.js', 'swagger-ui.css', 'swagger-ui-bundle.js'].map(
      (f) => join(dir, 'fixture', f),
    )
    expect(res.stdout.trim().split('\n')).toEqual(files.map((f) => `Generated ${f}`))
    for (const f of files) expect((await stat(f)).size).toBeGreaterThan(0)
    const d = JSON.parse(await readFile(files[0]!, 'utf8'))
    expect(d.info).toMatchObject({ title: 'Fixture API', version: '2.0.0' })
    expect(d.paths['/api/items/{id}'].get.operationId).toBe('items_controller.show')
    expect(d.paths['/notes'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/item',
    })
    expect(d.paths['/docs/{path}']).toBeUndefined()
    expect(d.paths['/ws']).toBeUndefined()
    expect(await readFile(files[1]!, 'utf8')).toContain('data-url="./api.json"')
  }, 120_000)

  it('the playground: products documented with priv/schemas/product.json, title defaults to the app name', async () => {
    const out = join(dir, 'playground', 'openapi.json')
    const res = await runCli(['openapi', '--root', PLAYGROUND, '--output', out])
    expect(res.code).toBe(0)
    expect(res.stdout.split('\n')[0]).toBe(`Generated ${out}`)
    const d = JSON.parse(await readFile(out, 'utf8'))
    expect(d.info).toMatchObject({ title: 'playground', version: '0.1.0' })
    expect(d.components.schemas.product.required).toEqual(['name', 'price'])
    expect(d.paths['/api/products'].post).toMatchObject({
      operationId: 'products_controller.create',
      responses: { 201: { description: 'Created' } },
    })
    // The list route names its reply in `responses`: { products, total }.
    expect(d.paths['/api/products'].get.responses[200].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/product_list',
    })
    expect(d.paths['/api/users'].get.responses[200].content['application/json'].schema.properties.users.items).toEqual({
      $ref: '#/components/schemas/user',
    })
    expect(d.paths['/api/products/{id}'].get.parameters).toMatchObject([{ name: 'id', in: 'path', required: true }])
    expect(d.paths['/heartbeat'].get.operationId).toBe('health_controller.heartbeat')
    // Loading the playground (telemetry, the database layer) takes seconds, many on a busy machine.
  }, 120_000)
})
