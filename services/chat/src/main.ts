// First: tracing must patch http and pg before anything loads them.
import '@app/kit/tracing-entry/chat';
import { runStandalone } from '@app/kit';
import { chatService } from './index';

void runStandalone(chatService);
