/**
 * The security of a route's operations: a group declared with `security: { scheme, check }`
 * registers its scheme under `components.securitySchemes` by its name (a second, different
 * scheme of the same name gets a number: `bearerAuth2`) and is required on each operation;
 * `security: false` gives `security: []` (open); a plain callback gives nothing.
 */
import type { NamedSecurityScheme, SecuritySchemeObject } from '../../server/contracts/routes.ts'
import type { CompiledRoute } from '../../server/router/compile.ts'

/** The security of a route's operations, registering its scheme; `undefined` for a plain callback. */
export function securityOf(
  route: CompiledRoute,
  schemes: Record<string, SecuritySchemeObject>,
  names: Map<NamedSecurityScheme, string>,
): Record<string, string[]>[] | undefined {
  const { security, securityScheme } = route.group
  if (security === false) return []
  if (!securityScheme) return undefined
  let name = names.get(securityScheme)
  if (!name) {
    name = securityScheme.name
    for (
      let n = 2;
      Object.hasOwn(schemes, name) && JSON.stringify(schemes[name]) !== JSON.stringify(securityScheme.scheme);
      n++
    )
      name = `${securityScheme.name}${n}`
    schemes[name] = securityScheme.scheme
    names.set(securityScheme, name)
  }
  return [{ [name]: [] }]
}
