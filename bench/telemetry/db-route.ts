/**
 * The telemetry bench's database route: `GET /db/products/:id`, one `Repo.get` through vela/dbl on
 * PostgreSQL (the rows of bench/dbl/fixtures.ts), so a traced request carries one query span.
 */
import { defineRepo } from '../../dbl/repo.ts'
import { defineSchema, timestamps } from '../../dbl/schema.ts'
import { json, status } from '../../server/index.ts'
import type { Route } from '../../server/index.ts'

const Product = defineSchema({
  table: 'products',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    price: { type: 'integer', nullable: false },
    description: 'text',
    ...timestamps(),
  },
})

/** The route over a started repo on `url`; `stop()` closes its pool. */
export async function dbRoutes(url: string): Promise<{ routes: Route[]; stop(): Promise<void> }> {
  const repo = defineRepo({ url, poolSize: 4 })
  await repo.start()
  const show: Route = [
    'GET /db/products/:id',
    async (req) => {
      const product = await repo.get(Product, req.bindings.id!)
      return product ? json(product) : status(404, { error: 'not found' })
    },
  ]
  return { routes: [show], stop: () => repo.stop() }
}

/** The route as the path runner sends it. */
export const DB_PATH_ROUTES = {
  'db products/:id': { method: 'GET', url: '/db/products/42', status: 200, body: undefined },
} as const
