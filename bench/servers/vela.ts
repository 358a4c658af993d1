/** Vela with the same three routes (vela-app.ts). */
import { listen } from '../../server/index.ts'
import { createBenchApp } from './vela-app.ts'

await listen(createBenchApp(), { port: Number(process.env.PORT), host: '127.0.0.1' })
