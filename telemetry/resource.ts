/**
 * The resource (`service.name`, host, process, `OTEL_RESOURCE_ATTRIBUTES`) every span and metric
 * carries, detected as `NodeSDK` does: the detectors `OTEL_NODE_RESOURCE_DETECTORS` names (`env`,
 * `host`, `os`, `process`, `serviceinstance`, `all` (the default) or `none`). `setupTelemetry()` waits for
 * the detectors' asynchronous attributes (the host id) once, so no export waits for them later.
 */
import type { Resource, ResourceDetector } from '@opentelemetry/resources'
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
} from '@opentelemetry/resources'
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions'

const DETECTORS: Record<string, ResourceDetector> = {
  env: envDetector,
  host: hostDetector,
  os: osDetector,
  process: processDetector,
  serviceinstance: serviceInstanceIdDetector,
}

/** The detectors the variable names; unknown names are skipped. */
export function resourceDetectors(env: NodeJS.ProcessEnv = process.env): ResourceDetector[] {
  const names = (env.OTEL_NODE_RESOURCE_DETECTORS ?? 'all')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean)
  if (names.includes('all') || names.length === 0) return Object.values(DETECTORS)
  if (names.includes('none')) return []
  return names.flatMap((n) => DETECTORS[n] ?? [])
}

/** The detected resource, fully resolved; an explicit `serviceName` wins over the variables. */
export async function detectResource(serviceName: string | undefined): Promise<Resource> {
  let resource = defaultResource().merge(detectResources({ detectors: resourceDetectors() }))
  if (serviceName) resource = resource.merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }))
  await resource.waitForAsyncAttributes?.()
  return resource
}
