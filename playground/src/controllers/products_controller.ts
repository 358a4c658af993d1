import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, from, isChangeset, orderBy, validateNumber, validateRequired } from 'vela/dbl'
import type { Changeset, DbError, RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Product } from '../schemas/product.ts'

type ProductRecord = RecordOf<typeof Product>

const present = (p: ProductRecord) => ({ id: p.id, name: p.name, price: p.price, description: p.description })

function changeset(existing: ProductRecord | null, params: Record<string, unknown>) {
  let cs = cast(Product, existing, params, ['name', 'price', 'description'])
  cs = validateRequired(cs, ['name', 'price'])
  return validateNumber(cs, 'price', { greaterThanOrEqualTo: 0 })
}

/** `:id` arrives as a string; a missing or non-numeric one is a 400, as the spec's handlers do. */
function idOf(req: VelaRequest): number | undefined {
  const id = Number(req.bindings.id)
  return Number.isSafeInteger(id) && id > 0 ? id : undefined
}

function failed(error: Changeset<typeof Product> | DbError) {
  if (isChangeset(error)) return status(422, {}, { errors: errorsToJson(error) })
  throw error
}

export async function index() {
  const res = await repo.all(orderBy(from(Product), 'id'))
  if (!res.ok) throw res.error
  return json({ products: res.value.map(present) })
}

export async function show(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return status(400, {}, { error: 'id must be a positive integer' })
  const res = await repo.get(Product, id)
  return res.ok ? json(present(res.value)) : status(404, {}, { error: `product ${id} not found` })
}

export async function create(req: VelaRequest) {
  if (req.json === undefined) return status(422, {}, { error: 'request body required: a JSON object with name and price' })
  const res = await repo.insert(changeset(null, req.params))
  return res.ok ? json(201, {}, present(res.value)) : failed(res.error)
}

export async function update(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return status(400, {}, { error: 'id must be a positive integer' })
  if (req.json === undefined) return status(422, {}, { error: 'request body required: a JSON object' })
  const found = await repo.get(Product, id)
  if (!found.ok) return status(404, {}, { error: `product ${id} not found` })
  const res = await repo.update(changeset(found.value, req.params))
  return res.ok ? json(present(res.value)) : failed(res.error)
}

export async function remove(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return status(400, {}, { error: 'id must be a positive integer' })
  const found = await repo.get(Product, id)
  if (!found.ok) return status(404, {}, { error: `product ${id} not found` })
  const res = await repo.delete(Product, found.value)
  if (!res.ok) throw res.error
  return status(204)
}
