// The part of s3rver (no types published) the tests use.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: { port?: number; address?: string; silent?: boolean; directory: string })
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
