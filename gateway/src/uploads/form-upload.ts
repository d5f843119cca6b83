import { PassThrough, type Readable } from 'node:stream';
import { AppError } from '@app/schema';

/** A text field of a form is never longer than this (keys, signatures, expiry times). */
const MAX_FIELD_BYTES = 4096;
const MAX_HEADER_BYTES = 4096;

export interface FormUpload {
  /** The text fields sent before the file (S3's rule: the file is the last field that counts). */
  fields: Record<string, string>;
  /** The file's bytes, streamed as they arrive. */
  file: Readable;
}

/**
 * Reads a multipart/form-data body (a browser's form upload, as S3's POST Object takes it) as a stream: the text
 * fields before `file` are collected, then the file's bytes are handed on without ever holding the whole body.
 * Resolves once the fields are read and the file starts; the file stream fails if the body is malformed.
 */
export function readFormUpload(body: Readable, contentType: string | undefined): Promise<FormUpload> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  if (!contentType?.toLowerCase().startsWith('multipart/form-data') || !boundary) {
    return Promise.reject(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data'));
  }
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const file = new PassThrough();
    // The body starts with the delimiter minus its leading CRLF; a CRLF in front makes every delimiter alike.
    let pending: Buffer = Buffer.from('\r\n');
    let state: 'preamble' | 'headers' | 'field' | 'file' | 'after' | 'done' = 'preamble';
    let fieldName = '';
    let settled = false;
    const fail = (error: Error) => {
      if (!settled) {
        settled = true;
        reject(error);
      } else file.destroy(error);
      body.destroy();
    };
    const malformed = () => fail(new AppError('VALIDATION_FAILED', 'The form upload is malformed'));

    const consume = (): boolean => {
      for (;;) {
        if (state === 'preamble' || state === 'field') {
          const at = pending.indexOf(delimiter);
          if (at < 0) {
            if (state === 'field' && pending.length > MAX_FIELD_BYTES + delimiter.length) return (malformed(), false);
            return true;
          }
          if (state === 'field') fields[fieldName] = pending.subarray(0, at).toString('utf8');
          pending = pending.subarray(at + delimiter.length);
          state = 'after';
        } else if (state === 'after') {
          if (pending.length < 2) return true;
          const next = pending.subarray(0, 2).toString('latin1');
          pending = pending.subarray(2);
          if (next === '--') {
            state = 'done';
            if (!settled) return (malformed(), false);
            return true;
          }
          if (next !== '\r\n') return (malformed(), false);
          state = 'headers';
        } else if (state === 'headers') {
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) {
            if (pending.length > MAX_HEADER_BYTES) return (malformed(), false);
            return true;
          }
          const headers = pending.subarray(0, end).toString('utf8');
          pending = pending.subarray(end + 4);
          const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
          if (name === undefined) return (malformed(), false);
          if (name.toLowerCase() === 'file') {
            state = 'file';
            settled = true;
            resolve({ fields, file });
          } else {
            fieldName = name;
            state = 'field';
          }
        } else if (state === 'file') {
          const at = pending.indexOf(delimiter);
          if (at >= 0) {
            file.end(pending.subarray(0, at));
            pending = pending.subarray(at + delimiter.length);
            state = 'after';
            continue;
          }
          // Keep back what could be the start of the delimiter; the rest is the file's.
          const safe = pending.length - (delimiter.length - 1);
          if (safe > 0) {
            const more = file.write(pending.subarray(0, safe));
            pending = pending.subarray(safe);
            if (!more) {
              body.pause();
              file.once('drain', () => body.resume());
            }
          }
          return true;
        } else {
          // After the closing delimiter: the epilogue is ignored.
          pending = Buffer.alloc(0);
          return true;
        }
      }
    };

    body.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      consume();
    });
    body.on('end', () => {
      if (state === 'done') return;
      if (state === 'file') file.destroy(new AppError('VALIDATION_FAILED', 'The form upload ended before its file did'));
      else malformed();
    });
    body.on('error', (error) => fail(error));
  });
}
