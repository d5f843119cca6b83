import { Transform, type TransformCallback } from 'node:stream';
import { ObjectTooLargeError } from './object-storage';

/** Passes bytes through until more than `maxBytes` have come, then fails with ObjectTooLargeError; `bytes` says how many passed. */
export class ByteLimit extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(new ObjectTooLargeError(this.maxBytes));
    callback(null, chunk);
  }
}
