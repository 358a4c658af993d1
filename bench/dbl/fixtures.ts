/** The table and seed rows of the database benchmark (bench/dbl.ts), shared by driver and servers. */
export const DDL = `create table if not exists products (id bigserial primary key, name varchar(255) not null,
  price integer not null, description text, inserted_at timestamptz, updated_at timestamptz)`

export const SEED = `insert into products (name, price, description, inserted_at, updated_at)
  select 'Product ' || i, i * 100, 'Seeded', now(), now() from generate_series(1, 1000) i`
