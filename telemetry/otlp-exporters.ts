/**
 * The OTLP exporters for `setup({ endpoint })`, by the protocol the standard variables name:
 * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_METRICS_PROTOCOL`, else
 * `OTEL_EXPORTER_OTLP_PROTOCOL`, else `http/protobuf`. Over HTTP the signal's path is appended to
 * the endpoint (`/v1/traces`, `/v1/metrics`); gRPC takes the endpoint as it is. Without
 * `endpoint` the SDK builds the same exporters from the variables alone.
 */
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc'
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http'
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto'
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc'
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics'
import type { SpanExporter } from '@opentelemetry/sdk-trace'

/** `http/protobuf`, `http/json` or `grpc`. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc'

/** The protocol for a signal from the variables; an unknown value falls back to `http/protobuf`. */
export function otlpProtocol(signal: 'TRACES' | 'METRICS', env: NodeJS.ProcessEnv = process.env): OtlpProtocol {
  const value = (env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] || env.OTEL_EXPORTER_OTLP_PROTOCOL || '').trim()
  return value === 'http/json' || value === 'grpc' ? value : 'http/protobuf'
}

/** A trace exporter to `base` (an OTLP endpoint without the signal path). */
export function otlpTraceExporter(base: string): SpanExporter {
  switch (otlpProtocol('TRACES')) {
    case 'grpc': return new GrpcTraceExporter({ url: base })
    case 'http/json': return new JsonTraceExporter({ url: `${base}/v1/traces` })
    default: return new ProtoTraceExporter({ url: `${base}/v1/traces` })
  }
}

/** A metric exporter to `base`, or where the variables say when `base` is undefined. */
export function otlpMetricExporter(base: string | undefined): PushMetricExporter {
  switch (otlpProtocol('METRICS')) {
    case 'grpc': return new GrpcMetricExporter(base ? { url: base } : {})
    case 'http/json': return new JsonMetricExporter(base ? { url: `${base}/v1/metrics` } : {})
    default: return new ProtoMetricExporter(base ? { url: `${base}/v1/metrics` } : {})
  }
}
