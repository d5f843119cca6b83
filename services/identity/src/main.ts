// First: tracing must patch http and pg before anything loads them.
import '@app/kit/tracing-entry/identity';
import { runStandalone } from '@app/kit';
import { identityService } from './index';

void runStandalone(identityService);
