export { collectProcessMetrics, readMetrics } from './registry';
export {
  type GenerationKind,
  type GenerationOutcome,
  busEventsConsumed,
  busEventsPublished,
  graphqlOperationDuration,
  httpRequestDuration,
  recordGeneration,
  recordProviderError,
  timeBusRequest,
  websocketConnections,
} from './series';
export { trackConsumerPending, trackStatusReporter } from './live-state';
export { isAuthorizedScrape, readMetricsToken } from './scrape';
