/**
 * The OTLP metric exporter for `setupTelemetry({ exportIntervalMs })`, by the protocol the standard
 * variables name: `OTEL_EXPORTER_OTLP_METRICS_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else
 * `http/protobuf`. Over HTTP `/v1/metrics` is appended to the endpoint; gRPC takes it as it is.
 * Without an endpoint the exporter reads `OTEL_EXPORTER_OTLP_*ENDPOINT` itself.
 */
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc'
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http'
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto'
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics'

/** `http/protobuf`, `http/json` or `grpc`. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc'

/** The protocol for a signal from the variables; an unknown value falls back to `http/protobuf`. */
export function otlpProtocol(
  signal: 'TRACES' | 'METRICS' | 'LOGS',
  env: NodeJS.ProcessEnv = process.env,
): OtlpProtocol {
  const value = (env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] || env.OTEL_EXPORTER_OTLP_PROTOCOL || '').trim()
  return value === 'http/json' || value === 'grpc' ? value : 'http/protobuf'
}

/** A metric exporter to `base`, or where the variables say when `base` is undefined. */
export function otlpMetricExporter(base: string | undefined): PushMetricExporter {
  switch (otlpProtocol('METRICS')) {
    case 'grpc':
      return new GrpcMetricExporter(base ? { url: base } : {})
    case 'http/json':
      return new JsonMetricExporter(base ? { url: `${base}/v1/metrics` } : {})
    default:
      return new ProtoMetricExporter(base ? { url: `${base}/v1/metrics` } : {})
  }
}
