/** The same in-memory data for every server under test. */
export const products = new Map<number, { id: number; name: string; price: number; description: string | null }>()
for (let i = 1; i <= 100; i++) products.set(i, { id: i, name: `Product ${i}`, price: 100 * i, description: i % 2 ? `Description of product ${i}` : null })
export const TOKEN = 'Bearer bench-token'
