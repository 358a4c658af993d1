/**
 * The products API (`/api/products`): prices in cents. The list is paged on request (`limit`,
 * `offset`, integers checked by the route's `validate`) and always says how many products there
 * are in all (`total`, `repo.count`). The routes' schemas (priv/schemas/product*.json) answer a
 * malformed request 422 `{ errors }` before an action runs; the changesets add the rules a
 * schema does not know. `show` and `delete` answer 400 for an id that is not one, `update` 404.
 */
import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, from } from 'vela/dbl'
import type { Changeset, RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Product } from '../schemas/product.ts'
import { error, idOf } from './_helpers.ts'

type ProductRecord = RecordOf<typeof Product>

const present = (p: ProductRecord) => ({ id: p.id, name: p.name, price: p.price, description: p.description })

function changeset(existing: ProductRecord | null, params: Record<string, unknown>) {
  return cast(Product, existing, params, ['name', 'price', 'description'])
    .validateRequired(['name', 'price'])
    .validateNumber('price', { greaterThanOrEqualTo: 0 })
}

/** A refused write: 422 with the changeset's errors (a database failure is thrown, and answered 503/504/500). */
function failed(err: Changeset<typeof Product>) {
  return status(422, { errors: errorsToJson(err) })
}

const BAD_ID = 'id must be a positive integer'
const missing = (id: unknown) => error(404, `product ${id} not found`)

/** The page a list asks for: the route's `product_page` schema checked it and made its values integers. */
interface Page {
  readonly limit?: number
  readonly offset?: number
}

/**
 * GET /api/products: 200 `{ products: [...], total }`, by id: every product, or the page
 * `?limit=n&offset=m` asks for; `total` counts them all.
 */
export async function index(req: VelaRequest) {
  const page = req.query as Page
  let q = from(Product).orderBy('id')
  if (page.limit !== undefined) q = q.limit(page.limit)
  if (page.offset !== undefined) q = q.offset(page.offset)
  const [products, total] = await Promise.all([repo.all(q), repo.count(from(Product))])
  return json({ products: products.map(present), total })
}

/** GET /api/products/:id: 200 the product; 400; 404. */
export async function show(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return error(400, BAD_ID)
  const product = await repo.get(Product, id)
  return product ? json(present(product)) : missing(id)
}

/** POST /api/products: name and price required; 201 the product; 422 `{ errors }`. */
export async function create(req: VelaRequest) {
  const res = await repo.insert(changeset(null, req.params))
  return res.ok ? json(present(res.value), { status: 201 }) : failed(res.error)
}

/** PUT /api/products/:id: cast onto the product; 200; 404; 422 `{ errors }`. */
export async function update(req: VelaRequest) {
  const id = idOf(req)
  const product = id === undefined ? undefined : await repo.get(Product, id)
  if (!product) return missing(req.bindings.id)
  const res = await repo.update(changeset(product, req.params))
  return res.ok ? json(present(res.value)) : failed(res.error)
}

/** DELETE /api/products/:id: 204; 400; 404. */
async function deleteAction(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return error(400, BAD_ID)
  const product = await repo.get(Product, id)
  if (!product) return missing(id)
  const res = await repo.delete(Product, product)
  if (!res.ok) throw res.error
  return status(204)
}

export { deleteAction as delete }
