export { type RequestContext, currentRequestContext, runOutsideRequestContext, runWithRequestContext } from './request-context';
export { activeTraceIds, isTracingOn, runDetached, traceEmbeddedQuery, traceRpcRequest, traceRpcServe } from './spans';
export { startTracing, stopTracing } from './start';
