import { runStandalone } from '@app/kit';
import { chatService } from './index';

void runStandalone(chatService);
