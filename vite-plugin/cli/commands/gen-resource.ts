/**
 * `vela gen_resource --name <plural> --actions <comma list>`: writes
 * `src/controllers/<plural>_controller.ts` with one stub per action and `priv/schemas/<singular>.json`
 * under the app root, then prints the route tuples to paste into a group in `src/routes/`, one per
 * action and method (`['GET /products', products.index],`; `update` gets a PUT and a PATCH route).
 *
 * - Conventional actions (Phoenix's `resources`): `index` GET /p, `new` GET /p/new, `create` POST /p,
 *   `show` GET /p/:id, `edit` GET /p/:id/edit, `update` PUT+PATCH /p/:id, `delete` DELETE /p/:id.
 *   Any other lowercase identifier is a GET /p/<action> collection route, as Rails' controller
 *   generator does. `default` and `then` are refused: a module exporting them is not a plain
 *   controller (`then` makes `import()` treat it as a promise).
 * - Each stub answers `501 { error: '<controller>.<action> is not implemented yet' }`, so a route
 *   pasted before the code is written fails loudly instead of looking like success.
 * - Reserved words (`delete`, `new`) cannot name a function: the stub is `deleteAction`, exported
 *   as `delete`, so the route reads `products.delete` and the action reports `delete`.
 * - The singular (inflect.ts) is the one `vela openapi` uses to tie `<plural>_controller` to
 *   `priv/schemas/<singular>.json`, so the generated routes are documented with the schema.
 * - Nothing is overwritten: if either file exists, nothing is written (exit status 1).
 * - Bad names and actions are usage errors (UsageError, exit status 2), like bad flags.
 */
import { access, mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { UsageError, defineCommand } from './args.ts'
import { singularize } from '../../../dbl/inflect.ts'
import type { HttpMethod } from '../../../server/router/route-method.ts'

// ---- names -----------------------------------------------------------------------------------

/** Words that cannot name a function in an ES module (reserved, strict-mode reserved, `eval`, `arguments`). */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
    'implements interface package private protected public await eval arguments'
  ).split(' '),
)

const RESOURCE_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/
const ACTION_NAME = /^[a-z][A-Za-z0-9_]*$/

/** `line_item` → `LineItem` (the schema title). */
const pascal = (snake: string) =>
  snake
    .split('_')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
/** `line_item` → `Line item` (property descriptions). */
const words = (snake: string) => {
  const text = snake.split('_').filter(Boolean).join(' ')
  return text[0]!.toUpperCase() + text.slice(1)
}

// ---- the plan: what gets written and printed ----------------------------------------------------

export interface ResourceAction {
  /** The export name, and the action `vela routes` reports. */
  readonly name: string
  /** The function's own name: `name`, or `<name>Action` for a reserved word and `status` (imported). */
  readonly local: string
  /** Path relative to the group prefix: `/products`, `/products/:id/edit`. */
  readonly path: string
  /** Uppercase, as route paths name them; a route is printed per method. */
  readonly methods: readonly HttpMethod[]
  /** What the action is for, in the stub's doc comment. */
  readonly hint: string
}

export interface ResourcePlan {
  readonly plural: string
  readonly singular: string
  /** `products_controller` */
  readonly controller: string
  /** Relative to the app root. */
  readonly controllerFile: string
  readonly schemaFile: string
  readonly actions: readonly ResourceAction[]
}

function actionOf(plural: string, one: string, name: string): Omit<ResourceAction, 'name' | 'local'> {
  const list = `/${plural}`
  const item = `/${plural}/:id`
  const id = `\`req.bindings.id\` (a string)`
  switch (name) {
    case 'index':
      return { path: list, methods: ['GET'], hint: `the list, answered as \`json({ ${plural}: [...] })\`` }
    case 'new':
      return { path: `${list}/new`, methods: ['GET'], hint: `the form for a new ${one}` }
    case 'create':
      return {
        path: list,
        methods: ['POST'],
        hint: `creates a ${one} from \`req.params\` (decoded by \`requestPlugin\` with \`json\`), answered as \`json(${one}, { status: 201 })\`; 422 when invalid`,
      }
    case 'show':
      return {
        path: item,
        methods: ['GET'],
        hint: `the ${one} ${id}, answered as \`json(${one})\`; 404 when there is none`,
      }
    case 'edit':
      return { path: `${item}/edit`, methods: ['GET'], hint: `the form to edit the ${one} ${id}` }
    case 'update':
      return {
        path: item,
        methods: ['PUT', 'PATCH'],
        hint: `changes the ${one} ${id} from \`req.params\`, answered as \`json(${one})\`; 404, 422`,
      }
    case 'delete':
      return {
        path: item,
        methods: ['DELETE'],
        hint: `deletes the ${one} ${id}, answered with \`status(204)\`; 404 when there is none`,
      }
    default:
      return {
        path: `${list}/${name}`,
        methods: ['GET'],
        hint: 'a custom action (generated as a GET collection route: change the route as needed)',
      }
  }
}

function parseActions(plural: string, one: string, list: string): ResourceAction[] {
  const names = list
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
  if (names.length === 0)
    throw new UsageError('--actions needs at least one action, e.g. index,show,create,update,delete')
  const locals = new Set<string>()
  return names.map((name) => {
    if (!ACTION_NAME.test(name))
      throw new UsageError(`action "${name}" is not a lowercase identifier (a letter, then letters, digits or _)`)
    if (name === 'default' || name === 'then')
      throw new UsageError(`action "${name}" cannot be a controller export (it changes how the module is imported)`)
    const local = RESERVED.has(name) || name === 'status' ? `${name}Action` : name
    if (locals.has(local) || locals.has(name)) throw new UsageError(`action "${name}" is listed twice`)
    locals.add(local).add(name)
    return { name, local, ...actionOf(plural, one, name) }
  })
}

/** Checks the arguments and decides every name and path; throws UsageError. */
export function planResource(name: string, actions: string): ResourcePlan {
  if (!RESOURCE_NAME.test(name))
    throw new UsageError(
      `--name "${name}" must be a lowercase identifier: a letter, then lowercase letters and digits, words joined by one _ (e.g. products, line_items)`,
    )
  if (RESERVED.has(name))
    throw new UsageError(
      `--name "${name}" is a reserved word in JavaScript; the routes could not import the controller under that name`,
    )
  const one = singularize(name)
  if (one === undefined)
    throw new UsageError(
      `--name takes the plural resource name (products, categories, people): "${name}" looks singular`,
    )
  const controller = `${name}_controller`
  return {
    plural: name,
    singular: one,
    controller,
    controllerFile: `src/controllers/${controller}.ts`,
    schemaFile: `priv/schemas/${one}.json`,
    actions: parseActions(name, one, actions),
  }
}

// ---- file texts and printed routes ---------------------------------------------------------------

export function controllerText(plan: ResourcePlan, command: string): string {
  const stubs = plan.actions.map((a) => {
    const methods = a.methods.join('/')
    const lines = [
      `/** ${methods} ${a.path}: ${a.hint}. */`,
      `${a.local === a.name ? 'export ' : ''}async function ${a.local}(_req: VelaRequest) {`,
      `  return status(501, { error: '${plan.controller}.${a.name} is not implemented yet' })`,
      '}',
    ]
    if (a.local !== a.name) {
      const why = a.name === 'status' ? 'the reply helper imported above' : 'a reserved word'
      lines.push(
        `// \`${a.name}\` is ${why}, so the function has another name and is exported as \`${a.name}\`.`,
        `export { ${a.local} as ${a.name} }`,
      )
    }
    return lines.join('\n')
  })
  return `// Generated by \`${command}\`.
// Every action answers 501 Not Implemented until it is written. The routes are not added for you:
// paste the route definitions the command printed into a group in src/routes/.
// The ${plan.singular} JSON schema for OpenAPI is ${plan.schemaFile}.
import { status } from 'vela'
import type { VelaRequest } from 'vela'

${stubs.join('\n\n')}
`
}

/** Draft-07, one line per property, as the reference app's `priv/schemas/product.json`. */
export function schemaText(plan: ResourcePlan): string {
  const prop = (name: string, type: string, description: string) =>
    `    ${JSON.stringify(name)}: { "type": "${type}", "description": ${JSON.stringify(description)} }`
  return `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": ${JSON.stringify(pascal(plan.singular))},
  "type": "object",
  "properties": {
${[prop('id', 'integer', 'Identifier, assigned by the database'), prop('name', 'string', `${words(plan.singular)} name`)].join(',\n')}
  },
  "required": ["name"]
}
`
}

/**
 * The import line for a file in src/routes/ and the route tuples (the runtime's `Route`), one per
 * action and method: `['GET /products', products.index],`.
 */
export function routeDefinitions(plan: ResourcePlan): { importLine: string; routes: string[] } {
  return {
    importLine: `import * as ${plan.plural} from '../controllers/${plan.controller}.ts'`,
    routes: plan.actions.flatMap((a) => a.methods.map((m) => `['${m} ${a.path}', ${plan.plural}.${a.name}],`)),
  }
}

// ---- writing and the command ----------------------------------------------------------------------

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  )

/** Writes both files, or none when either exists; returns their absolute paths. `display` names them in errors. */
export async function writeResource(
  root: string,
  plan: ResourcePlan,
  command: string,
  display: (file: string) => string,
): Promise<string[]> {
  const files: [string, string][] = [
    [resolve(root, plan.controllerFile), controllerText(plan, command)],
    [resolve(root, plan.schemaFile), schemaText(plan)],
  ]
  const taken = []
  for (const [file] of files) if (await exists(file)) taken.push(display(file))
  if (taken.length === 1)
    throw new Error(`${taken[0]} already exists; nothing was written (remove or rename it to generate again)`)
  if (taken.length)
    throw new Error(
      `${taken.join(' and ')} already exist; nothing was written (remove or rename them to generate again)`,
    )
  for (const [file, text] of files) {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, text, { flag: 'wx' }) // wx: never replace a file created meanwhile
  }
  return files.map(([file]) => file)
}

export const genResourceCommand = defineCommand({
  name: 'gen_resource',
  summary: 'controller stubs and priv/schemas/<singular>.json; prints the routes to paste',
  description: `Writes src/controllers/<plural>_controller.ts (one stub per action, answering 501 until written)
and priv/schemas/<singular>.json, then prints the route tuples to paste into a group in
src/routes/. Conventional actions: index, new, create, show, edit, update, delete; any other name
is a GET /<plural>/<action> route. Nothing is overwritten.`,
  options: {
    name: {
      type: 'string',
      required: true,
      value: '<plural>',
      description: 'the resource, plural and snake_case: products, line_items',
    },
    actions: {
      type: 'string',
      required: true,
      value: '<list>',
      description: 'comma-separated actions, e.g. index,show,create,update,delete',
    },
  },
  example: 'vela gen_resource --name line_items --actions index,show,create',
  async run({ root, values, display }) {
    const plan = planResource(values.name, values.actions)
    const command = `vela gen_resource --name ${plan.plural} --actions ${plan.actions.map((a) => a.name).join(',')}`
    for (const file of await writeResource(root, plan, command, display)) console.log(`Generated ${display(file)}`)
    const { importLine, routes } = routeDefinitions(plan)
    console.log(
      `\nRoutes to paste into a group in src/routes/ (e.g. src/routes/${plan.plural}.ts):\n\n${importLine}\n\n${routes.join('\n')}`,
    )
    return 0
  },
})
