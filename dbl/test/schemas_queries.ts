/** The work-order schemas of the query cases (customers → work orders → line items), with their DDL. */
import { belongsTo, defineSchema, hasMany, timestamps, type AnySchema } from '../schema.ts'

export const Customer = defineSchema({
  table: 'customers',
  fields: { id: 'id', name: { type: 'string', nullable: false }, tier: { type: { enum: ['free', 'pro'] }, nullable: false } },
  associations: { work_orders: hasMany((): AnySchema => WorkOrder) },
})

export const WorkOrder = defineSchema({
  table: 'work_orders',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    status: { type: { enum: ['open', 'done'] }, nullable: false },
    estimate_minutes: 'integer',
    customer_id: { type: 'integer', nullable: false },
    ...timestamps(),
  },
  // Typed from the work order (up to its customer, down to its line items); the ways back are cut with AnySchema.
  associations: { customer: belongsTo(() => Customer), line_items: hasMany(() => LineItem) },
})

export const LineItem = defineSchema({
  table: 'line_items',
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
  `create table work_orders (id bigserial primary key, title varchar(255) not null, status varchar(255) not null,
     estimate_minutes integer, customer_id integer not null references customers(id), inserted_at timestamptz, updated_at timestamptz)`,
  `create table line_items (id bigserial primary key, work_order_id integer not null references work_orders(id),
     description varchar(255), quantity integer not null, unit_price integer not null, discount double precision)`,
]

export const queriesTables = ['line_items', 'work_orders', 'customers']
