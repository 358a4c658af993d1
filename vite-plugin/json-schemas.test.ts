// `vela schemas` and the dev server's rewrite: JSON Schemas from the dbl schemas, with read-only
// generated fields, a patch variant, embedded schemas nested, and hand-written files kept.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { defineEmbeddedSchema, defineSchema, embedsMany, embedsOne, timestamps } from '../dbl/index.ts'
import { Note } from '../playground/src/schemas/note.ts'
import { Product } from '../playground/src/schemas/product.ts'
import { runMain, useTempApps } from './cli/commands/test/run-cli.ts'
import { startDevServer } from './dev/dev-server.ts'
import vela from './index.ts'
import { toJsonSchema } from './json-schemas.ts'
import { useTempDirs } from './test/built-app.ts'

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>

it("the playground's products: generated fields read-only, required from non-null fields, a patch variant requiring nothing", () => {
  expect(toJsonSchema(Product)).toEqual({
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Product',
    type: 'object',
    properties: {
      id: { type: 'integer', readOnly: true },
      name: { type: 'string', maxLength: 255 },
      price: { type: 'integer' },
      description: { type: ['string', 'null'] },
      inserted_at: { type: ['string', 'null'], format: 'date-time', readOnly: true },
      updated_at: { type: ['string', 'null'], format: 'date-time', readOnly: true },
    },
    required: ['name', 'price'],
  })
  expect(toJsonSchema(Note, 'patch')).toEqual({
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'NotePatch',
    type: 'object',
    properties: {
      title: { type: 'string', maxLength: 255 },
      body: { type: ['string', 'null'] },
      author: { type: ['string', 'null'], maxLength: 255 },
      user_id: { type: ['integer', 'null'] },
    },
  })
})

it('every field type, defaults, virtual fields and embedded schemas', () => {
  const Address = defineEmbeddedSchema({
    name: 'address',
    fields: { city: { type: 'string', nullable: false }, zip: 'string' },
  })
  const Order = defineSchema({
    table: 'work_orders',
    fields: {
      id: { type: 'uuid', primaryKey: true },
      due: 'date',
      rate: 'float',
      urgent: { type: 'boolean', nullable: false, default: false },
      code: { type: 'string', size: 12, nullable: false },
      tags: { array: 'string' },
      state: { type: { enum: ['open', 'done'] }, nullable: false },
      kind: { enum: ['a', 'b'] },
      extra: 'jsonb',
      secret: { type: 'string', virtual: true },
      address: { type: embedsOne(Address), nullable: false },
      stops: embedsMany(Address),
      ...timestamps(),
    },
  })
  const s = toJsonSchema(Order) as { title: string; properties: Record<string, unknown>; required: string[] }
  expect(s.title).toBe('WorkOrder')
  expect(s.properties).toEqual({
    id: { type: 'string', format: 'uuid', readOnly: true },
    due: { type: ['string', 'null'], format: 'date' },
    rate: { type: ['number', 'null'] },
    urgent: { type: 'boolean' },
    code: { type: 'string', maxLength: 12 },
    tags: { type: ['array', 'null'], items: { type: 'string', maxLength: 255 } },
    state: { type: 'string', enum: ['open', 'done'] },
    kind: { type: ['string', 'null'], enum: ['a', 'b', null] },
    extra: {},
    secret: { type: ['string', 'null'], maxLength: 255, writeOnly: true },
    address: {
      type: 'object',
      properties: { city: { type: 'string', maxLength: 255 }, zip: { type: ['string', 'null'], maxLength: 255 } },
      required: ['city'],
    },
    stops: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        properties: { city: { type: 'string', maxLength: 255 }, zip: { type: ['string', 'null'], maxLength: 255 } },
        required: ['city'],
      },
    },
    inserted_at: { type: ['string', 'null'], format: 'date-time', readOnly: true },
    updated_at: { type: ['string', 'null'], format: 'date-time', readOnly: true },
  })
  expect(s.required).toEqual(['code', 'state', 'address'])
})

const tempApp = useTempApps()
const APP = {
  'vite.config.ts':
    "import { defineConfig } from 'vite'\nimport vela from 'vela/vite'\nexport default defineConfig({ plugins: [vela()] })\n",
  'src/app.ts': "import { defineApp } from 'vela'\nexport default defineApp({ app: 'shapes' })\n",
  'src/schemas/shapes.ts': `import { defineSchema, defineEmbeddedSchema } from 'vela/dbl'
export const Point = defineEmbeddedSchema({ name: 'point', fields: { x: 'float' } })
export const Product = defineSchema({ table: 'products', fields: { id: 'id', name: { type: 'string', nullable: false } } })
export const Category = defineSchema({ table: 'categories', fields: { id: 'id', label: 'string' } })
`,
  'priv/schemas/product.json': '{ "title": "My own product", "type": "object" }\n',
}

it('vela schemas writes a file per table schema and its patch variant, keeps hand-written files, rewrites only what changed', async () => {
  const root = tempApp(APP)
  const dir = join(root, 'priv/schemas')
  const first = await runMain(['schemas'], root)
  expect(first.stderr).toBe('')
  expect(first.code).toBe(0)
  expect(first.stdout.split('\n').filter(Boolean).sort()).toEqual(
    [
      'Generated priv/schemas/category.json',
      'Generated priv/schemas/category_patch.json',
      'Generated priv/schemas/product_patch.json',
      'Kept priv/schemas/product.json (hand-written)',
    ].sort(),
  )
  // Atomic writes leave no temporary file; embedded schemas get none of their own.
  expect(readdirSync(dir).sort()).toEqual([
    'category.json',
    'category_patch.json',
    'product.json',
    'product_patch.json',
  ])
  expect(readFileSync(join(dir, 'product.json'), 'utf8')).toBe(APP['priv/schemas/product.json'])
  const category = readJson(join(dir, 'category.json'))
  expect(category.$comment).toBe('generated by vela schemas from src/schemas/shapes.ts; edit the schema, not this file')
  expect(category.properties).toEqual({
    id: { type: 'integer', readOnly: true },
    label: { type: ['string', 'null'], maxLength: 255 },
  })

  // A generated file the user took over (mark removed) is theirs from then on.
  writeFileSync(join(dir, 'category_patch.json'), '{ "type": "object", "properties": {} }\n')
  const second = await runMain(['schemas'], root)
  expect(second.stdout).toContain('Kept priv/schemas/category_patch.json (hand-written)')
  expect(second.stdout).not.toContain('Generated')
  expect(readJson(join(dir, 'category_patch.json'))).toEqual({ type: 'object', properties: {} })
})

const temp = useTempDirs()

it('the dev server rewrites the generated files when a schema changes, and leaves hand-written ones', async () => {
  const app = temp.fixture('notes')
  const handWritten = readFileSync(join(app, 'priv/schemas/note.json'), 'utf8')
  const patch = join(app, 'priv/schemas/note_patch.json')
  process.env.NOTES_DATA = temp.dir('vela-notes-json-')
  const server = await startDevServer({
    root: app,
    port: 0,
    plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })],
  })
  try {
    // Written as the dev server started.
    expect(readJson(patch).properties).toEqual({ body: { type: 'string' } })
    const schema = join(app, 'src/schemas/note.ts')
    writeFileSync(
      schema,
      readFileSync(schema, 'utf8').replace(
        "body: { type: 'text', nullable: false } }",
        "body: { type: 'text', nullable: false }, done: 'boolean' }",
      ),
    )
    const deadline = Date.now() + 30_000
    while (!('done' in (readJson(patch).properties as object)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50))
    expect(readJson(patch).properties).toEqual({ body: { type: 'string' }, done: { type: ['boolean', 'null'] } })
    expect(readFileSync(join(app, 'priv/schemas/note.json'), 'utf8')).toBe(handWritten)
    expect(
      existsSync(join(app, 'priv/schemas')) && readdirSync(join(app, 'priv/schemas')).filter((f) => f.endsWith('.tmp')),
    ).toEqual([])
  } finally {
    await server.close()
    delete process.env.NOTES_DATA
  }
}, 90_000)
