// First: tracing must patch http and pg before anything loads them.
import '@app/kit/tracing-entry/media';
import { runStandalone } from '@app/kit';
import { mediaService } from './index';

void runStandalone(mediaService);
