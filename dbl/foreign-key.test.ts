// The default foreign key of an association (foreignKeyOf, schema.ts): one function, a proper
// English singular, used by associations, constraint declarations and the migration generator.
import { describe, expect, it } from 'vitest'
import { resolveAssoc } from './assoc.ts'
import { cast } from './changeset.ts'
import { assocConstraint, noAssocConstraint } from './constraints.ts'
import { modelFromSchemas } from './migrations/model.ts'
import { belongsTo, defineSchema, foreignKeyOf, hasMany, hasOne, type AnySchema } from './schema.ts'

describe('foreignKeyOf', () => {
  it('hasOne / hasMany: the owner table made singular, plus _id', () => {
    const of = (table: string) => foreignKeyOf({ table }, 'children', { kind: 'hasMany' })
    expect(['categories', 'boxes', 'addresses', 'people', 'line_items', 'users', 'news', 'status'].map(of)).toEqual([
      'category_id',
      'box_id',
      'address_id',
      'person_id',
      'line_item_id',
      'user_id',
      'news_id',
      'status_id',
    ])
  })

  it('belongsTo: the association name plus _id; an explicit foreignKey always wins', () => {
    expect(foreignKeyOf({ table: 'products' }, 'category', { kind: 'belongsTo' })).toBe('category_id')
    expect(foreignKeyOf({ table: 'categories' }, 'products', { kind: 'hasMany', foreignKey: 'cat' })).toBe('cat')
    expect(foreignKeyOf({ table: 'products' }, 'category', { kind: 'belongsTo', foreignKey: 'kind_id' })).toBe(
      'kind_id',
    )
  })
})

const Category = defineSchema({
  table: 'categories',
  fields: { id: 'id', name: 'string' },
  associations: { products: hasMany((): AnySchema => Product), featured: hasOne((): AnySchema => Product) },
})
const Product = defineSchema({
  table: 'products',
  fields: { id: 'id', name: 'string', category_id: 'integer' },
  associations: { category: belongsTo(() => Category) },
})

describe('the default used everywhere', () => {
  it('associations join categories to products on category_id (not categorie_id)', () => {
    expect(resolveAssoc(Category, 'products').foreignKey).toBe('category_id')
    expect(resolveAssoc(Category, 'featured').foreignKey).toBe('category_id')
    expect(resolveAssoc(Product, 'category').foreignKey).toBe('category_id')
  })

  it('constraint declarations name products_category_id_fkey, as the generated migration does', () => {
    const [noAssoc] = noAssocConstraint(cast(Category, {}, {}, []), 'products').constraints
    const [assoc] = assocConstraint(cast(Product, {}, {}, []), 'category').constraints
    expect(noAssoc).toMatchObject({ constraint: 'products_category_id_fkey', field: 'products' })
    expect(assoc).toMatchObject({ constraint: 'products_category_id_fkey', field: 'category' })
    const column = modelFromSchemas([Category, Product])
      .get('products')!
      .columns.find((c) => c.name === 'category_id')
    expect(column?.references).toMatchObject({ table: 'categories', column: 'id' })
  })
})
