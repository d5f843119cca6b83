import { chatEnvironment, chatProviderEnvironment } from '@app/chat';
import { gatewayEnvironment, publicWebEnvironment } from '@app/gateway';
import { identityEnvironment } from '@app/identity';
import {
  type Environment,
  type Variable,
  eventsEnvironment,
  infraEnvironment,
  listenEnvironment,
  loggingEnvironment,
  metricsEnvironment,
  natsCredentialsEnvironment,
  outboxEnvironment,
  standaloneEnvironment,
  storageEnvironment,
  tracingEnvironment,
} from '@app/kit';
import { imageProviderEnvironment, mediaEnvironment } from '@app/media';
import { modelStageEnvironment, policyEnvironment } from '@app/policy';

/** Every variable any process of the platform reads, in the order of the README's configuration table. */
export const PLATFORM_ENVIRONMENTS: Environment<Record<string, Variable<unknown>>>[] = [
  listenEnvironment,
  infraEnvironment,
  natsCredentialsEnvironment,
  eventsEnvironment,
  outboxEnvironment,
  storageEnvironment,
  loggingEnvironment,
  tracingEnvironment,
  standaloneEnvironment,
  metricsEnvironment,
  gatewayEnvironment,
  publicWebEnvironment,
  identityEnvironment,
  chatEnvironment,
  chatProviderEnvironment,
  mediaEnvironment,
  imageProviderEnvironment,
  policyEnvironment,
  modelStageEnvironment,
];
