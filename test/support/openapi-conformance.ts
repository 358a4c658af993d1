/**
 * The playground answers as its OpenAPI document says. A suite records every HTTP exchange of its
 * cases (exchange-recorder.ts) and registers `documentedResponsesCase` last: each exchange with a
 * documented operation must have a status the document lists for it, and a JSON body that passes
 * (Ajv) the schema documented for that status. The document is the one the dev server serves.
 *
 * Not checked: exchanges with no documented operation (unknown paths, methods a route does not
 * list, CORS preflights), redirects (3xx: the document describes bodies, and a redirect has none
 * it could describe), and bodies that are not JSON (the HTML pages) or whose status the document
 * lists without a body schema.
 */
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { expect, it } from 'vitest'
import type { OpenApiDocument } from '../../vite-plugin/openapi/document.ts'
import type { Exchange } from './exchange-recorder.ts'
import type { Playground } from './playground.ts'
import { until } from './until.ts'

type Operation = OpenApiDocument['paths'][string][string]

/** The document's path templates as patterns, literal ones first (`/a/summary` before `/a/{id}`). */
function operationFinder(
  doc: OpenApiDocument,
): (method: string, path: string) => { template: string; op: Operation } | undefined {
  const templates = Object.keys(doc.paths)
    .map((template) => ({
      template,
      params: (template.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.params - b.params)
  return (method, path) => {
    for (const { template, pattern } of templates) {
      const op = pattern.test(path) ? doc.paths[template]![method.toLowerCase()] : undefined
      if (op) return { template, op }
    }
    return undefined
  }
}

/** Registers the check of every recorded exchange against the served document. */
export function documentedResponsesCase(server: () => Playground, recorded: () => Promise<readonly Exchange[]>): void {
  it('every documented response has a status the OpenAPI document lists and a body its schema accepts', async () => {
    const exchanges = await recorded()
    // The dev server writes the document once the app has loaded; /docs serves it.
    await until(
      'the dev server wrote its OpenAPI document',
      () => server().output().includes('wrote priv/assets/openapi.json'),
      60_000,
    )
    const doc = (await (await fetch(`${server().base}/docs/openapi.json`)).json()) as OpenApiDocument
    expect(doc.openapi).toBe('3.0.3')
    const find = operationFinder(doc)
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats(ajv)
    const failures: string[] = []
    const checked = new Set<string>()
    let bodies = 0
    for (const x of exchanges) {
      const found = find(x.method, x.path)
      if (!found) continue
      const where = `${x.method} ${found.template} → ${x.status}`
      const response = found.op.responses[String(x.status)]
      if (!response) {
        failures.push(`${where}: status not in the document (${Object.keys(found.op.responses).join(', ')})`)
        continue
      }
      checked.add(`${x.method} ${found.template} ${x.status}`)
      const schema = response.content?.['application/json']?.schema
      if (!schema || !/^application\/json/.test(x.contentType ?? '')) continue
      const validate = ajv.compile({ ...schema, components: doc.components })
      bodies++
      if (!validate(JSON.parse(x.body)))
        failures.push(`${where}: ${ajv.errorsText(validate.errors)} in ${x.body.slice(0, 200)}`)
    }
    expect(failures.join('\n')).toBe('')
    // The cases reach the JSON API's operations, with their success and error statuses.
    for (const seen of [
      'GET /api/products 200',
      'GET /api/products 422',
      'POST /api/products 201',
      'POST /api/products 422',
      'POST /api/products 400',
      'POST /api/products 413',
      'GET /api/products/{id} 404',
      'PUT /api/products/{id} 422',
      'GET /api/notes 200',
      'POST /api/notes 201',
      'POST /api/notes 422',
      'GET /api/notes/{id} 200',
      'GET /api/notes/{id} 404',
      'PUT /api/notes/{id} 200',
      'PUT /api/notes/{id} 422',
      'DELETE /api/notes/{id} 204',
      'GET /api/users/{id} 400',
      'GET /api/info 200',
    ]) {
      expect(checked).toContain(seen)
    }
    expect(bodies).toBeGreaterThan(40)
  })
}
