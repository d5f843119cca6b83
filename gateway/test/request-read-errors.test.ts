import type express from 'express';
import { HTTP_STATUS } from '@app/schema';
import { requestReadError } from '../src/http/error-handler';

/** The errors body-parser and raw-body raise (http-errors: a status and a type), as they reach the last handler. */
const raised = (status: number, type: string) => Object.assign(new Error(type), { status, statusCode: status, type, expose: status < 500 });
const request = (state: Partial<{ destroyed: boolean; readableAborted: boolean }> = {}) =>
  ({ destroyed: false, readableAborted: false, ...state }) as express.Request;

describe('requestReadError: what reading a request can fail with, for the client', () => {
  it.each([
    [413, 'entity.too.large', 413, 'PAYLOAD_TOO_LARGE'],
    [413, 'parameters.too.many', 413, 'PAYLOAD_TOO_LARGE'],
    [415, 'charset.unsupported', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [415, 'encoding.unsupported', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [400, 'entity.parse.failed', 400, 'VALIDATION_FAILED'],
    [403, 'entity.verify.failed', 400, 'VALIDATION_FAILED'],
    [400, 'querystring.parse.rangeError', 400, 'VALIDATION_FAILED'],
    [400, 'request.aborted', 400, 'VALIDATION_FAILED'],
    [400, 'request.size.invalid', 400, 'VALIDATION_FAILED'],
  ])('%d %s answers %d %s with a sentence', (status, type, answered, code) => {
    const error = requestReadError(raised(status, type), request());
    expect(error?.code).toBe(code);
    expect(HTTP_STATUS[error!.code]).toBe(answered);
    expect(error?.message).toMatch(/^[A-Z].+/);
  });

  it('an unreadable stream is the client going away when the request was aborted, and our fault otherwise', () => {
    expect(requestReadError(raised(500, 'stream.not.readable'), request({ readableAborted: true }))?.code).toBe('VALIDATION_FAILED');
    expect(requestReadError(raised(500, 'stream.not.readable'), request())).toBeNull();
    expect(requestReadError(raised(500, 'stream.encoding.set'), request())).toBeNull();
  });

  it('a path that is not correctly percent-encoded is 400; an unknown 4xx is 400; anything else is left to the 500 path', () => {
    const badPath = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 });
    expect(requestReadError(badPath, request())?.message).toBe('The URL is not correctly percent-encoded.');
    expect(requestReadError(Object.assign(new Error('gone'), { status: 410 }), request())?.code).toBe('VALIDATION_FAILED');
    expect(requestReadError(new Error('a bug'), request())).toBeNull();
    expect(requestReadError('not even an error', request())).toBeNull();
  });
});
