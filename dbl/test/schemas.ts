/** Schemas shared by the dbl tests, with the DDL a migration would create for them. */
import { belongsTo, defineSchema, hasMany, hasOne, timestamps, type AnySchema } from '../schema.ts'

export const Product = defineSchema({
  table: 'products',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    price: { type: 'integer', nullable: false },
    description: 'text',
    ...timestamps(),
  },
  indexes: [{ columns: ['name'], unique: true }],
})

export const User = defineSchema({
  table: 'users',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    email: { type: 'string', nullable: false, size: 120 },
    ...timestamps(),
  },
  // Typed one way (users → posts → comments, users → profile); the way back is cut with AnySchema.
  associations: {
    posts: hasMany(() => Post),
    profile: hasOne(() => Profile),
  },
  indexes: [{ columns: ['email'], unique: true }],
})

export const Post = defineSchema({
  table: 'posts',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    user_id: 'integer',
    ...timestamps(),
  },
  associations: { user: belongsTo((): AnySchema => User), comments: hasMany(() => Comment) },
})

export const Comment = defineSchema({
  table: 'comments',
  fields: { id: 'id', body: { type: 'text', nullable: false }, post_id: 'integer', author_id: 'integer' },
  associations: {
    post: belongsTo((): AnySchema => Post),
    author: belongsTo((): AnySchema => User, { foreignKey: 'author_id' }),
  },
})

export const Profile = defineSchema({
  table: 'profiles',
  fields: { id: 'id', bio: 'text', user_id: 'integer' },
  associations: { user: belongsTo((): AnySchema => User) },
})

/** Every field type, for casting and round-trip tests. */
export const Thing = defineSchema({
  table: 'things',
  fields: {
    id: 'id',
    label: 'string',
    body: 'text',
    count: 'integer',
    ratio: 'float',
    active: 'boolean',
    happened_at: 'utc_datetime',
    day: 'date',
    ref: 'uuid',
    meta: 'jsonb',
    tags: { type: { array: 'string' } },
    scores: { type: { array: 'integer' } },
    status: { type: { enum: ['draft', 'published'] } },
  },
})

export const ddl = [
  `create table products (id bigserial primary key, name varchar(255) not null, price integer not null,
     description text, inserted_at timestamptz, updated_at timestamptz)`,
  `create unique index products_name_index on products (name)`,
  `create table users (id bigserial primary key, name varchar(255) not null, email varchar(120) not null,
     inserted_at timestamptz, updated_at timestamptz)`,
  `create unique index users_email_index on users (email)`,
  `create table posts (id bigserial primary key, title varchar(255) not null,
     user_id integer references users(id), inserted_at timestamptz, updated_at timestamptz,
     constraint posts_title_check check (length(title) > 1))`,
  `create table comments (id bigserial primary key, body text not null, post_id integer references posts(id),
     author_id integer references users(id))`,
  `create table profiles (id bigserial primary key, bio text, user_id integer references users(id))`,
  `create table things (id bigserial primary key, label varchar(255), body text, count integer, ratio double precision,
     active boolean, happened_at timestamptz, day date, ref uuid, meta jsonb, tags varchar(255)[], scores integer[],
     status varchar(255))`,
]

export const tables = ['profiles', 'comments', 'posts', 'users', 'products', 'things']
