/**
 * The multi-table queries of the database benchmark (bench/dbl.ts, its second part): schemas,
 * tables, seed rows, and each query three ways (vela/dbl, knex's builder, the SQL for bare drivers).
 */
import type { Knex } from 'knex'
import {
  count,
  from,
  join,
  limit,
  orderBy,
  select,
  where,
  groupBy,
  sum,
  defineSchema,
  belongsTo,
  hasMany,
  type AnySchema,
} from '../../dbl/index.ts'

export const Customer = defineSchema({
  table: 'customers',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    tier: { type: { enum: ['free', 'pro'] }, nullable: false },
  },
  associations: { work_orders: hasMany((): AnySchema => WorkOrder) },
})
export const LineItem = defineSchema({
  table: 'order_lines',
  fields: {
    id: 'id',
    work_order_id: { type: 'integer', nullable: false },
    quantity: { type: 'integer', nullable: false },
    unit_price: { type: 'integer', nullable: false },
  },
})
export const WorkOrder = defineSchema({
  table: 'orders',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    status: { type: { enum: ['open', 'done'] }, nullable: false },
    customer_id: { type: 'integer', nullable: false },
  },
  associations: {
    customer: belongsTo(() => Customer),
    line_items: hasMany(() => LineItem, { foreignKey: 'work_order_id' }),
  },
})

export const QUERY_DDL = `create table if not exists customers (id bigserial primary key, name varchar(255) not null, tier varchar(255) not null);
create table if not exists orders (id bigserial primary key, title varchar(255) not null, status varchar(255) not null, customer_id integer not null references customers(id));
create index if not exists orders_customer_id_index on orders (customer_id);
create table if not exists order_lines (id bigserial primary key, work_order_id integer not null references orders(id), quantity integer not null, unit_price integer not null);
create index if not exists order_lines_work_order_id_index on order_lines (work_order_id)`

// 50 customers (every other one pro), 500 orders, 1500 lines: small enough that the database's work does not drown the rest.
export const QUERY_SEED = `insert into customers (name, tier) select 'Customer ' || i, case when i % 2 = 0 then 'pro' else 'free' end from generate_series(1, 50) i;
insert into orders (title, status, customer_id) select 'Order ' || i, case when i % 3 = 0 then 'done' else 'open' end, 1 + i % 50 from generate_series(1, 500) i;
insert into order_lines (work_order_id, quantity, unit_price) select 1 + i % 500, 1 + i % 5, 100 + i % 700 from generate_series(1, 1500) i`

/** One table, one condition, a limit: the query most requests build (a row by its key). */
export const velaPlain = (id: number) => limit(where(from(Customer), 'id', '=', id), 1)
export const velaPlainChain = (id: number) => from(Customer).where('id', '=', id).limit(1)

/** Join with a filter: a page of one tier's orders with the customer's name. */
export const velaJoin = (tier: 'free' | 'pro') =>
  select(limit(orderBy(where(join(from(WorkOrder), 'customer'), 'customer.tier', '=', tier), 'id'), 50), [
    'id',
    'title',
    'status',
    'customer.name',
  ])
/** Grouped aggregate: per customer, its orders in a status and the sum of their lines' quantity × unit price. */
export const velaSummary = (status: 'open' | 'done') =>
  orderBy(
    select(groupBy(join(where(from(WorkOrder), 'status', '=', status), 'line_items'), ['customer_id']), {
      customer_id: 'customer_id',
      orders: count('id', { distinct: true }),
      total: sum(['line_items.quantity', '*', 'line_items.unit_price']),
    }),
    'customer_id',
  )

/** The same two queries chained, as the docs write them. */
export const velaJoinChain = (tier: 'free' | 'pro') =>
  from(WorkOrder)
    .join('customer')
    .where('customer.tier', '=', tier)
    .orderBy('id')
    .limit(50)
    .select(['id', 'title', 'status', 'customer.name'])
export const velaSummaryChain = (status: 'open' | 'done') =>
  from(WorkOrder)
    .where('status', '=', status)
    .join('line_items')
    .groupBy(['customer_id'])
    .select({
      customer_id: 'customer_id',
      orders: count('id', { distinct: true }),
      total: sum(['line_items.quantity', '*', 'line_items.unit_price']),
    })
    .orderBy('customer_id')

export const knexPlain = (k: Knex, id: number) => k('customers').where('id', id).limit(1)

export const knexJoin = (k: Knex, tier: string) =>
  k('orders')
    .join('customers', 'customers.id', 'orders.customer_id')
    .where('customers.tier', tier)
    .orderBy('orders.id')
    .limit(50)
    .select('orders.id', 'orders.title', 'orders.status', 'customers.name')
export const knexSummary = (k: Knex, status: string) =>
  k('orders')
    .join('order_lines', 'order_lines.work_order_id', 'orders.id')
    .where('orders.status', status)
    .groupBy('orders.customer_id')
    .orderBy('orders.customer_id')
    .select(
      'orders.customer_id',
      k.raw('count(distinct ??) as ??', ['orders.id', 'orders']),
      k.raw('sum(?? * ??) as ??', ['order_lines.quantity', 'order_lines.unit_price', 'total']),
    )

export const JOIN_SQL =
  'select "orders"."id", "orders"."title", "orders"."status", "customer"."name" as "customer.name" from "orders" inner join "customers" as "customer" on "customer"."id" = "orders"."customer_id" where "customer"."tier" = $1 order by "orders"."id" asc limit $2'
export const SUMMARY_SQL =
  'select "orders"."customer_id" as "customer_id", count(distinct "orders"."id") as "orders", sum("line_items"."quantity" * "line_items"."unit_price") as "total" from "orders" inner join "order_lines" as "line_items" on "line_items"."work_order_id" = "orders"."id" where "orders"."status" = $1 group by "orders"."customer_id" order by "orders"."customer_id" asc'
