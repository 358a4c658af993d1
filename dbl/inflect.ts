/**
 * English singulars of table and resource names: `products` → `product`, `categories` →
 * `category`, `boxes` → `box`, `people` → `person`, `line_items` → `line_item`. One rule for the
 * database layer (the default foreign key of hasOne / hasMany, `foreignKeyOf` in schema.ts), `vela
 * gen_resource` (which names the schema file) and `vela openapi` (which finds a controller's
 * schema by it). It lives in dbl/ because dbl must not import the Vite side; it imports nothing.
 */

/** Plurals the suffix rules get wrong, by their last `_` segment. */
const IRREGULAR: Readonly<Record<string, string>> = {
  people: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  mice: 'mouse',
  movies: 'movie',
  cookies: 'cookie',
  zombies: 'zombie',
  calories: 'calorie',
  caches: 'cache',
  statuses: 'status',
  buses: 'bus',
  viruses: 'virus',
  bonuses: 'bonus',
  campuses: 'campus',
  analyses: 'analysis',
  crises: 'crisis',
  theses: 'thesis',
  quizzes: 'quiz',
  heroes: 'hero',
  leaves: 'leaf',
  knives: 'knife',
  lives: 'life',
  wives: 'wife',
  halves: 'half',
  shelves: 'shelf',
  wolves: 'wolf',
}
/** Words whose plural is the word itself. */
const UNCOUNTABLE = new Set([
  'news',
  'series',
  'species',
  'data',
  'metadata',
  'media',
  'equipment',
  'information',
  'feedback',
  'staff',
  'sheep',
  'fish',
  'deer',
])
const SINGULAR_OF_IRREGULAR = new Set(Object.values(IRREGULAR))

/**
 * `products` → `product`, `categories` → `category`, `boxes` → `box`, `addresses` → `address`,
 * `people` → `person`, `line_items` → `line_item` (the last `_` segment is the noun);
 * `undefined` when the name does not look plural (`product`, `address`, `status`).
 */
export function singularize(plural: string): string | undefined {
  const cut = plural.lastIndexOf('_') + 1
  const head = plural.slice(0, cut)
  const word = plural.slice(cut)
  const one = (s: string) => head + s
  if (UNCOUNTABLE.has(word)) return plural
  if (Object.hasOwn(IRREGULAR, word)) return one(IRREGULAR[word]!)
  if (SINGULAR_OF_IRREGULAR.has(word) || /(ss|is)$/.test(word) || !word.endsWith('s') || word === 's') return undefined
  if (/[^aeiou]ies$/.test(word)) return one(`${word.slice(0, -3)}y`)
  if (/(x|ch|sh|ss|zz)es$/.test(word)) return one(word.slice(0, -2))
  return one(word.slice(0, -1))
}
