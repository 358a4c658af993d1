/**
 * The work-order schemas of the query cases (customers → work orders → line items), with their DDL.
 * The tables are `orders` and `order_lines`: other suites have a `work_orders` table of their own.
 */
import { belongsTo, defineSchema, hasMany, manyToMany, timestamps, type AnySchema } from '../schema.ts'

export const Customer = defineSchema({
  table: 'customers',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    tier: { type: { enum: ['free', 'pro'] }, nullable: false },
  },
  associations: { work_orders: hasMany((): AnySchema => WorkOrder) },
})

export const Label = defineSchema({ table: 'labels', fields: { id: 'id', name: { type: 'string', nullable: false } } })

/** Work order ↔ labels through `order_labels`. */
const labels = manyToMany(() => Label, { joinThrough: 'order_labels', joinKeys: ['work_order_id', 'label_id'] })

export const WorkOrder = defineSchema({
  table: 'orders',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    status: { type: { enum: ['open', 'done'] }, nullable: false },
    estimate_minutes: 'integer',
    customer_id: { type: 'integer', nullable: false },
    ...timestamps(),
  },
  // Typed from the work order (up to its customer, down to its line items); the ways back are cut with AnySchema.
  associations: {
    customer: belongsTo(() => Customer),
    line_items: hasMany(() => LineItem, { foreignKey: 'work_order_id' }),
    labels,
  },
})

export const LineItem = defineSchema({
  table: 'order_lines',
  fields: {
    id: 'id',
    work_order_id: { type: 'integer', nullable: false },
    description: 'string',
    quantity: { type: 'integer', nullable: false },
    unit_price: { type: 'integer', nullable: false },
    discount: 'float',
  },
  associations: { work_order: belongsTo((): AnySchema => WorkOrder) },
})

export const queriesDdl = [
  `create table customers (id bigserial primary key, name varchar(255) not null, tier varchar(255) not null)`,
  `create table orders (id bigserial primary key, title varchar(255) not null, status varchar(255) not null,
     estimate_minutes integer, customer_id integer not null references customers(id), inserted_at timestamptz, updated_at timestamptz)`,
  `create table order_lines (id bigserial primary key, work_order_id integer not null references orders(id),
     description varchar(255), quantity integer not null, unit_price integer not null, discount double precision)`,
  `create table labels (id bigserial primary key, name varchar(255) not null)`,
  `create table order_labels (work_order_id integer not null references orders(id), label_id integer not null references labels(id),
     unique (work_order_id, label_id))`,
]

export const queriesTables = ['order_labels', 'labels', 'order_lines', 'orders', 'customers']
