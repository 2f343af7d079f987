// Stands in for `@smithy/core/checksum` in the Lambda bundles (an esbuild alias set in
// infra/content-api-stack.ts). The SDK clients we bundle import only its `Sha256` from it (their
// signing hash), which on Node is this class on node:crypto; the module's pure JavaScript fallback
// for runtimes without crypto, and its MD5 and CRC32 hashers, are about 4 KB of every bundle.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto'

type SourceData = string | ArrayBuffer | ArrayBufferView

function toBuffer(data: SourceData): string | Buffer {
  if (typeof data === 'string') return data
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  return Buffer.from(data)
}

/** SHA-256, or HMAC-SHA-256 with a secret, as @smithy/core's Sha256Node. */
export class Sha256 {
  readonly digestLength = 32
  private readonly secret: SourceData | undefined
  private hash: Hash | Hmac
  private finished = false

  constructor(secret?: SourceData) {
    this.secret = secret
    this.hash = this.createHash()
  }

  update(data: string | Uint8Array): void {
    if (this.finished) throw new Error('Attempted to update an already finished hash.')
    this.hash.update(data)
  }

  async digest(): Promise<Uint8Array> {
    let buffer: Buffer
    if (this.secret) {
      this.finished = true
      buffer = this.hash.digest()
    } else {
      buffer = (this.hash as Hash).copy().digest()
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  }

  reset(): void {
    this.hash = this.createHash()
    this.finished = false
  }

  private createHash(): Hash | Hmac {
    return this.secret ? createHmac('sha256', toBuffer(this.secret)) : createHash('sha256')
  }
}
