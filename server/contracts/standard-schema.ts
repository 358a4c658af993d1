/**
 * The Standard Schema interface (https://standardschema.dev), version 1: what zod, valibot, arktype
 * and other validation libraries expose as `schema['~standard']`. Vela accepts any object of this
 * shape in a route's `validate` and `responses` options without depending on any of those
 * libraries; the interface is meant to be declared by its consumers, so it is declared here.
 */

/** A validation library's schema, seen through its `~standard` property. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>
}

export declare namespace StandardSchemaV1 {
  /** What `schema['~standard']` holds. */
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>
    readonly types?: Types<Input, Output> | undefined
  }
  /** A validation's outcome: the value, or the issues found. */
  export type Result<Output> = SuccessResult<Output> | FailureResult
  export interface SuccessResult<Output> {
    readonly value: Output
    readonly issues?: undefined
  }
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>
  }
  /** One problem: a message and where in the value it was found. */
  export interface Issue {
    readonly message: string
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined
  }
  export interface PathSegment {
    readonly key: PropertyKey
  }
  /** Type-level only: the schema's input and output types. */
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input
    readonly output: Output
  }
  /** The output type a schema validates to. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output']
  /** The input type a schema accepts. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input']
}
