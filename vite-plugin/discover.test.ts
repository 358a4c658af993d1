// Discovery (which files count is tested through Vite, in dev-server.test.ts): how discovered
// modules merge with what src/app.ts lists, and the identities the runtime derives from the keys.
import { describe, expect, it } from 'vitest'
import { compileRoutes } from '../server/router/compile.ts'
import { withDiscovered } from './discover.ts'

const show = () => ({ kind: 'status', status: 200 }) as never
const index = () => ({ kind: 'status', status: 200 }) as never
const controllerModule = { show, index }
const routeModule = {
  default: {
    prefix: '/api',
    security: false as const,
    routes: [
      ['GET /products/:id', show],
      ['GET /products', index],
    ] as const,
  },
}

const table = (config: ReturnType<typeof withDiscovered>) =>
  compileRoutes({ routes: config.routes, controllers: config.controllers, globalPlugins: [], environment: 'dev' })

describe('withDiscovered', () => {
  it('gives discovered handlers their file-name identities (glob keys normalised)', () => {
    const config = withDiscovered(
      { bootstrapApplication: 'x', routes: {} },
      {
        routes: { '/src/routes/api.ts': routeModule },
        controllers: { '/src/controllers/products_controller.ts': controllerModule },
      },
    )
    expect(Object.keys(config.routes)).toEqual(['src/routes/api.ts'])
    const routes = table(config).routes.map((r) => [r.path, `${r.info.controller}.${r.info.action}`])
    expect(routes).toContainEqual(['/api/products/:id', 'products_controller.show'])
    expect(routes).toContainEqual(['/api/products', 'products_controller.index'])
  })

  it('keeps what the app lists and adds nothing twice, whatever key the app used', () => {
    const explicit = {
      bootstrapApplication: 'x',
      routes: { api: routeModule.default },
      controllers: { catalog: controllerModule },
    }
    const config = withDiscovered(explicit, {
      routes: { '/src/routes/api.ts': routeModule },
      controllers: { '/src/controllers/products_controller.ts': controllerModule },
    })
    expect(Object.keys(config.routes)).toEqual(['api'])
    expect(Object.keys(config.controllers!)).toEqual(['catalog'])
    // No duplicate-route error, and the explicit key names the controller.
    expect(table(config).routes.find((r) => r.path === '/api/products/:id')?.info.controller).toBe('catalog')
  })

  it('merges: modules the app does not list are added beside the listed ones', () => {
    const other = { default: { prefix: '/other', security: false as const, routes: [['GET /ping', index]] as const } }
    const config = withDiscovered(
      { bootstrapApplication: 'x', routes: { 'src/routes/api.ts': routeModule } },
      { routes: { '/src/routes/api.ts': routeModule, '/src/routes/other.ts': other }, controllers: {} },
    )
    expect(Object.keys(config.routes)).toEqual(['src/routes/api.ts', 'src/routes/other.ts'])
    expect(table(config).routes.map((r) => r.path)).toContain('/other/ping')
  })

  it('names a route file without a default export', () => {
    expect(() =>
      withDiscovered(
        { bootstrapApplication: 'x', routes: {} },
        { routes: { '/src/routes/bad.ts': { routes: [] } }, controllers: {} },
      ),
    ).toThrow(/src\/routes\/bad\.ts must default-export its routes/)
  })
})
