/**
 * The products API (spec §4.3 `/api/products`): prices in cents. Validation failures are 422
 * `{ errors }`; a create or update without a JSON body is a 422 `{ error }`; `show` and `delete`
 * answer 400 for an id that is not one (the spec's "missing binding"), `update` 404 (its row lists
 * no 400).
 */
import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, from, isChangeset, orderBy, validateNumber, validateRequired } from 'vela/dbl'
import type { Changeset, DbError, RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Product } from '../schemas/product.ts'
import { error, idOf } from './_helpers.ts'

type ProductRecord = RecordOf<typeof Product>

const present = (p: ProductRecord) => ({ id: p.id, name: p.name, price: p.price, description: p.description })

function changeset(existing: ProductRecord | null, params: Record<string, unknown>) {
  let cs = cast(Product, existing, params, ['name', 'price', 'description'])
  cs = validateRequired(cs, ['name', 'price'])
  return validateNumber(cs, 'price', { greaterThanOrEqualTo: 0 })
}

function failed(err: Changeset<typeof Product> | DbError) {
  if (isChangeset(err)) return status(422, {}, { errors: errorsToJson(err) })
  throw err
}

const BAD_ID = 'id must be a positive integer'
const missing = (id: unknown) => error(404, `product ${id} not found`)

/** GET /api/products: 200 `{ products: [...] }`. */
export async function index() {
  const res = await repo.all(orderBy(from(Product), 'id'))
  if (!res.ok) throw res.error
  return json({ products: res.value.map(present) })
}

/** GET /api/products/:id: 200 the product; 400; 404. */
export async function show(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return error(400, BAD_ID)
  const res = await repo.get(Product, id)
  return res.ok ? json(present(res.value)) : missing(id)
}

/** POST /api/products: name and price required; 201 the product; 422 `{ errors }`; no body 422 `{ error }`. */
export async function create(req: VelaRequest) {
  if (req.json === undefined) return error(422, 'request body required: a JSON object with name and price')
  const res = await repo.insert(changeset(null, req.params))
  return res.ok ? json(201, {}, present(res.value)) : failed(res.error)
}

/** PUT /api/products/:id: cast onto the product; 200; 404; 422 `{ errors }` or `{ error }`. */
export async function update(req: VelaRequest) {
  const id = idOf(req)
  const found = id === undefined ? undefined : await repo.get(Product, id)
  if (!found?.ok) return missing(req.bindings.id)
  if (req.json === undefined) return error(422, 'request body required: a JSON object')
  const res = await repo.update(changeset(found.value, req.params))
  return res.ok ? json(present(res.value)) : failed(res.error)
}

/** DELETE /api/products/:id: 204; 400; 404. */
async function deleteAction(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return error(400, BAD_ID)
  const found = await repo.get(Product, id)
  if (!found.ok) return missing(id)
  const res = await repo.delete(Product, found.value)
  if (!res.ok) throw res.error
  return status(204)
}

export { deleteAction as delete }
